/** The cold-start floor of a function that talks to no AWS service: a module and nothing else. */
export const handler = async () => ({ statusCode: 200 });
