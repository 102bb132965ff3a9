import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { SqsImportQueue } from '../../../functions/shared/adapters/sqs-import-queue';
import { logger } from '../../../functions/shared/observability';

const sqs = mockClient(SQSClient);
const logged = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
beforeEach(() => {
  sqs.reset();
  logged.mockClear();
});

const queue = () => new SqsImportQueue(new SQSClient({ region: 'eu-west-1' }), 'https://sqs.eu-west-1.amazonaws.com/1/chunks');
const sentIndexes = () => sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.Entries?.map((entry) => JSON.parse(entry.MessageBody ?? '').index));

describe('the import queue on SQS', () => {
  it('sends one message per chunk, ten to a batch, and answers that every chunk went', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    expect(await queue().sendChunks('imp_1', 23)).toEqual([]);
    expect(sentIndexes()).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19], [20, 21, 22]]);
  });

  it('answers the chunks SQS refused, and sends the batches after them', async () => {
    sqs.on(SendMessageBatchCommand).resolvesOnce({ Successful: [], Failed: [{ Id: '3', Code: 'InternalError', SenderFault: false }] }).resolves({ Successful: [], Failed: [] });
    expect(await queue().sendChunks('imp_1', 12)).toEqual([3]);
    expect(sentIndexes()).toHaveLength(2);
    expect(logged).toHaveBeenCalledWith('the import queue refused chunks, their rows reported failed', { jobId: 'imp_1', refused: 1, code: 'InternalError' });
  });

  it('answers every chunk from a batch that got no answer on, sending no more', async () => {
    sqs.on(SendMessageBatchCommand).resolvesOnce({ Successful: [], Failed: [] }).rejects(Object.assign(new Error('socket hang up'), { name: 'TimeoutError' }));
    expect(await queue().sendChunks('imp_1', 25)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
    expect(sentIndexes()).toHaveLength(2);
    expect(logged).toHaveBeenCalledWith('the import queue did not answer, the rows of the chunks not sent reported failed', { jobId: 'imp_1', unsent: 15, error: 'TimeoutError' });
  });
});
