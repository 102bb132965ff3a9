import * as z from 'zod/mini';
import { builtOnFirstUse, parseOrRefuse, wholeNumberParameter } from '../domain/request-parsing';
import { OwnMessages } from '../domain/messages';
import { HSTS_HEADER } from './headers';
import type { HttpResponse } from './responses';

export const QR_SIZE = { min: 128, max: 1024, default: 512 } as const;
export const QR_FORMATS = ['svg', 'png'] as const;

/** GET /v2/links/{code}/qr query parameters; each bad one is a 400 naming it. */
export const qrQuerySchema = builtOnFirstUse(() =>
  z.object({
    format: z.optional(z.enum(QR_FORMATS, OwnMessages.formatParameter)),
    size: z.optional(wholeNumberParameter(QR_SIZE.min, QR_SIZE.max, OwnMessages.sizeParameter)),
  }),
);

export interface QrOptions {
  format: (typeof QR_FORMATS)[number];
  size: number;
}

export function parseQrQuery(parameters: Record<string, string | undefined> | null): QrOptions {
  const { format, size } = parseOrRefuse(qrQuerySchema(), parameters ?? {});
  return { format: format ?? 'svg', size: size ?? QR_SIZE.default };
}

/** A short link's QR code never changes: browsers may keep it a day. */
const IMAGE_HEADERS = { 'cache-control': 'private, max-age=86400', 'x-content-type-options': 'nosniff', ...HSTS_HEADER };

/**
 * The QR code of `text` (medium error correction, the usual quiet zone), `size` pixels wide. The library is
 * loaded on the first QR request, so other requests of the function never pay for it.
 */
export async function qrResponse(text: string, options: QrOptions): Promise<HttpResponse> {
  const { default: QRCode } = await import('qrcode');
  const rendering = { width: options.size, margin: 4, errorCorrectionLevel: 'M' } as const;
  if (options.format === 'png') {
    const png = await QRCode.toBuffer(text, { ...rendering, type: 'png' });
    return { statusCode: 200, headers: { 'content-type': 'image/png', ...IMAGE_HEADERS }, body: png.toString('base64'), isBase64Encoded: true };
  }
  const svg = await QRCode.toString(text, { ...rendering, type: 'svg' });
  return { statusCode: 200, headers: { 'content-type': 'image/svg+xml', ...IMAGE_HEADERS }, body: svg };
}
