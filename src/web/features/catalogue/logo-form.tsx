import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { showError, showSuccess } from '../../components/ui/dialogs';
import { ApiError } from '../../lib/api';
import { setSignedIn, useGiftCardStore } from '../../lib/store';
import { uploadLogo } from './api';

const ACCEPT = 'image/png,image/jpeg,image/webp';

/**
 * Seed §2 Account → Personal: the logo (a placeholder when there is none), a file picker with a local
 * preview, and "Update company logo", sent only when a file is chosen. The server checks the bytes.
 */
export function LogoForm() {
  const business = useGiftCardStore((s) => s.bizClient);
  const queryClient = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  // The local preview of the chosen file; its object URL is released when the file changes or the form goes.
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const upload = useMutation({
    mutationFn: (chosen: File) => uploadLogo(business!.id, chosen),
    onSuccess: async (account) => {
      setSignedIn(account);
      setFile(null);
      await queryClient.invalidateQueries({ queryKey: ['own-cards'] });
      await showSuccess('image uploaded SUCCESSFULLY.', 'Okay!');
    },
    onError: (err) =>
      showError(
        'Logo not updated',
        err instanceof ApiError ? err.message : 'The logo could not be uploaded. Please try again.',
      ),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (file) upload.mutate(file);
  }

  const shown = preview ?? business?.logoUrl ?? '/logo-placeholder.svg';
  return (
    <form onSubmit={submit} className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <img
        src={shown}
        alt={
          preview ? 'Preview of the chosen logo' : business?.logoUrl ? `${business.name} logo` : 'No logo yet'
        }
        className="h-24 w-24 shrink-0 rounded-full bg-white object-cover ring-1 ring-slate-200"
      />
      <div className="flex flex-col gap-2">
        <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
          Company logo (PNG, JPEG or WebP, up to 2 MB)
        </label>
        <input
          id={inputId}
          type="file"
          accept={ACCEPT}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          className="text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:py-2 file:font-semibold file:text-brand-700 hover:file:bg-brand-100"
        />
        <Button type="submit" disabled={!file || upload.isPending} className="self-start">
          {upload.isPending ? 'Uploading…' : 'Update company logo'}
        </Button>
      </div>
    </form>
  );
}
