import { useEffect, useRef, useState } from 'react';
import { formatCode, parseCode } from '../../../shared/cards/codes';
import { Button } from '../../components/ui/button';
import { Icon, icons } from '../../components/ui/icon';

type ScanState =
  { kind: 'starting' } | { kind: 'scanning'; hint: string | null } | { kind: 'failed'; message: string };

const messages = {
  insecure:
    'The camera works only on a secure (https) connection. Type the code instead, or open Giftmart over https.',
  noCamera: 'No camera was found on this device. Type the code instead.',
  refused:
    'Giftmart was not allowed to use the camera. Allow the camera for this site in your browser’s settings, or type the code instead.',
  failed: 'The camera could not start. Type the code instead.',
  notACode: 'That QR code is not a Giftmart card code. Point the camera at the QR on the customer’s card.',
};

async function cameraRefused(): Promise<boolean> {
  try {
    const status = await navigator.permissions.query({ name: 'camera' as PermissionName });
    return status.state === 'denied';
  } catch {
    return false;
  }
}

/**
 * The till's camera: reads the QR on the holder's card page (it holds the formatted code) and hands the
 * code over once its check character agrees. qr-scanner is loaded here, on demand, so no other page
 * downloads it; it decodes in a Web Worker. Typing stays the fallback when there is no camera or no
 * permission, and the message says so.
 */
export function QrScan({ onCode, onCancel }: { onCode: (code: string) => void; onCancel: () => void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<ScanState>({ kind: 'starting' });
  const onCodeRef = useRef(onCode);
  useEffect(() => {
    onCodeRef.current = onCode;
  }, [onCode]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let cancelled = false;
    let scanner: { stop: () => void; destroy: () => void } | null = null;

    async function start(video: HTMLVideoElement) {
      if (!window.isSecureContext || !navigator.mediaDevices) {
        setState({ kind: 'failed', message: messages.insecure });
        return;
      }
      const { default: QrScanner } = await import('qr-scanner');
      if (cancelled) return;
      if (!(await QrScanner.hasCamera())) {
        if (!cancelled) setState({ kind: 'failed', message: messages.noCamera });
        return;
      }
      let done = false;
      const instance = new QrScanner(
        video,
        (result) => {
          if (done) return;
          const parsed = parseCode(result.data);
          if (!parsed.ok) {
            setState({ kind: 'scanning', hint: messages.notACode });
            return;
          }
          done = true;
          instance.stop();
          onCodeRef.current(formatCode(parsed.body));
        },
        {
          returnDetailedScanResult: true,
          preferredCamera: 'environment',
          maxScansPerSecond: 8,
          onDecodeError: () => {},
        },
      );
      scanner = instance;
      if (cancelled) {
        instance.destroy();
        return;
      }
      try {
        await instance.start();
        if (!cancelled) setState({ kind: 'scanning', hint: null });
      } catch {
        instance.destroy();
        scanner = null;
        if (!cancelled) {
          setState({
            kind: 'failed',
            message: (await cameraRefused()) ? messages.refused : messages.noCamera,
          });
        }
      }
    }

    start(video).catch((error: unknown) => {
      console.error('QR scanner', error);
      if (!cancelled) setState({ kind: 'failed', message: messages.failed });
    });
    return () => {
      cancelled = true;
      scanner?.destroy();
    };
  }, []);

  return (
    <section
      aria-label="Scan the card’s QR code"
      className="rounded-2xl border border-slate-200 bg-slate-900 p-3"
    >
      <div className="relative mx-auto aspect-[4/3] w-full max-w-md overflow-hidden rounded-xl bg-black">
        {/* The camera picture; muted and inline so phones play it without a tap. */}
        <video
          ref={videoRef}
          muted
          playsInline
          aria-hidden="true"
          className={`h-full w-full object-cover ${state.kind === 'failed' ? 'hidden' : ''}`}
        />
        {state.kind !== 'failed' ? (
          // A frame to aim with.
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-0 flex items-center justify-center"
          >
            <div className="aspect-square w-3/5 max-w-56 rounded-2xl border-4 border-white/80 shadow-[0_0_0_9999px_rgba(15,23,42,0.35)]" />
          </div>
        ) : null}
        {state.kind === 'failed' ? (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-6 text-center text-white">
            <Icon path={icons.eyeOff} className="h-8 w-8 text-slate-300" />
            <p role="alert" className="text-sm font-medium">
              {state.message}
            </p>
          </div>
        ) : null}
      </div>
      <div className="mt-3 flex flex-col gap-3 px-1 sm:flex-row sm:items-center sm:justify-between">
        <p role="status" aria-live="polite" className="min-w-0 text-sm text-slate-200 sm:flex-1">
          {state.kind === 'starting'
            ? 'Starting the camera…'
            : state.kind === 'scanning'
              ? (state.hint ?? 'Point the camera at the QR code on the customer’s card.')
              : ''}
        </p>
        <Button variant="secondary" onClick={onCancel}>
          {state.kind === 'failed' ? 'Close' : 'Stop scanning'}
        </Button>
      </div>
    </section>
  );
}
