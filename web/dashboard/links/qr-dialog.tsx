import { useEffect, useRef, useState } from 'preact/hooks';
import { call, type Api, type Problem } from '../api';
import { ProblemNote, saveFile } from '../ui';

type QrFormat = 'svg' | 'png';

/** The link's QR code from the API (as the account's key fetches it), previewed and saved as SVG or PNG. */
export function QrDialog(props: { api: Api; code: string; domain: string | undefined; shortUrl: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [images, setImages] = useState<Partial<Record<QrFormat, Blob>>>({});
  const [preview, setPreview] = useState<string>();
  const [problem, setProblem] = useState<Problem>();

  const fetchImage = async (format: QrFormat): Promise<Blob | undefined> => {
    if (images[format]) return images[format];
    const answer = await call(() =>
      props.api.GET('/v2/links/{code}/qr', {
        params: { path: { code: props.code }, query: { format, ...(props.domain ? { domain: props.domain } : {}) } },
        parseAs: 'blob',
      }),
    );
    if ('problem' in answer) {
      setProblem(answer.problem);
      return undefined;
    }
    const blob = answer.data;
    setImages((previous) => ({ ...previous, [format]: blob }));
    return blob;
  };

  useEffect(() => {
    dialog.current?.showModal();
    let url: string | undefined;
    void fetchImage('svg').then((blob) => {
      if (blob) setPreview((url = URL.createObjectURL(blob)));
    });
    return () => url && URL.revokeObjectURL(url);
  }, []);

  const download = async (format: QrFormat) => {
    const blob = await fetchImage(format);
    if (blob) saveFile(blob, `${props.code}-qr.${format}`);
  };

  return (
    <dialog ref={dialog} aria-labelledby="qr-title" class="qr" onClose={props.onClose}>
      <h2 id="qr-title">QR code</h2>
      {preview ? <img src={preview} width={240} height={240} alt={`QR code for ${props.shortUrl}`} /> : !problem && <p>Loading…</p>}
      <ProblemNote problem={problem} />
      <div class="actions">
        <button type="button" onClick={() => download('svg')}>
          Download SVG
        </button>
        <button type="button" onClick={() => download('png')}>
          Download PNG
        </button>
        <button type="button" class="quiet" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
