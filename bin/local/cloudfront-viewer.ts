/**
 * CloudFront's own headers about the viewer (`CloudFront-Viewer-Address`, `-Country`, `-City`...): CloudFront sets
 * them, so whatever a viewer sends under these names never reaches the origin. The local distributions' stand-ins drop
 * them and name the connection's address, as CloudFront does.
 */
export const isCloudFrontViewerHeader = (lowerCaseName: string) => lowerCaseName.startsWith('cloudfront-viewer-');
