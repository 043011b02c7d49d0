import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Mail } from '../../../shared/notifications/schemas';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icon';
import { LoadError } from '../../components/ui/load-more';
import { ApiError } from '../../lib/api';
import { getMailbox, mailboxKey } from './api';
import { absoluteTime } from './format-time';
import { linkify } from './linkify';

const REFRESH_EVERY_MS = 3000;
const FILTER_DELAY_MS = 300;

const statusStyles: Record<Mail['status'], string> = {
  queued: 'bg-amber-100 text-amber-900 ring-amber-600/20',
  sent: 'bg-emerald-100 text-emerald-800 ring-emerald-600/20',
  failed: 'bg-red-100 text-red-800 ring-red-600/20',
};
const statusLabels: Record<Mail['status'], string> = { queued: 'Queued', sent: 'Sent', failed: 'Failed' };

function isNoMailbox(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * /dev/mailbox — with no SMTP server configured, Giftmart keeps the mail it would send; this page shows it,
 * newest first, so a gift's link can be followed on one machine. Each mail opens to its plain text, with
 * its web addresses as links (the HTML part is never put in the page). It refreshes every few seconds,
 * and can show only the mail to one address (?to=, as the API takes it).
 */
export default function MailboxPage() {
  const filterId = useId();
  const [params, setParams] = useSearchParams();
  const to = params.get('to')?.trim() ?? '';
  const [text, setText] = useState(to);

  useEffect(() => {
    const next = text.trim();
    if (next === to) return;
    const timer = setTimeout(() => setParams(next ? { to: next } : {}, { replace: true }), FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, to, setParams]);

  const mailbox = useQuery({
    queryKey: mailboxKey(to),
    queryFn: ({ signal }) => getMailbox(to, signal),
    staleTime: 0,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (isNoMailbox(query.state.error) ? false : REFRESH_EVERY_MS),
  });
  const noMailbox = mailbox.isError && isNoMailbox(mailbox.error);

  let body;
  if (mailbox.isPending) {
    body = (
      <div role="status" aria-live="polite">
        <span className="sr-only">Loading the mailbox…</span>
        <ul aria-hidden="true" className="flex flex-col gap-3">
          {[0, 1, 2].map((n) => (
            <li key={n} className="h-20 animate-pulse rounded-2xl bg-slate-200" />
          ))}
        </ul>
      </div>
    );
  } else if (noMailbox) {
    body = (
      <EmptyState
        icon={icons.inbox}
        title="Mail is sent through SMTP here; there is no local mailbox."
        text="Look for the messages in the inboxes they were sent to."
      />
    );
  } else if (mailbox.isError && !mailbox.data) {
    body = (
      <LoadError
        title="We couldn’t load the mailbox."
        message={mailbox.error.message}
        onRetry={() => mailbox.refetch()}
        retrying={mailbox.isFetching}
      />
    );
  } else if (mailbox.data.items.length === 0) {
    body = (
      <EmptyState
        icon={icons.inbox}
        title={to ? `No mail to ${to} yet` : 'No mail yet'}
        text="Mail Giftmart sends (a gift, for one) appears here within a few seconds."
      />
    );
  } else {
    body = (
      <ul aria-label="Mail, newest first" className="flex flex-col gap-3">
        {mailbox.data.items.map((mail) => (
          <li key={mail.id}>
            <MailItem mail={mail} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Mailbox</h1>
      <p className="mt-3 text-slate-600">
        When no mail server is set up, Giftmart keeps the mail it would send here, newest first. The list
        refreshes every few seconds; open a mail to read it.
      </p>
      {noMailbox ? null : (
        <div className="mt-6 max-w-sm">
          <label htmlFor={filterId} className="text-sm font-medium text-slate-700">
            Only mail to
          </label>
          <input
            id={filterId}
            type="search"
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            placeholder="ada@example.com"
            value={text}
            onChange={(event) => setText(event.target.value)}
            className="mt-1.5 w-full rounded-lg border border-slate-300 px-3.5 py-2.5 text-base text-slate-900 shadow-sm outline-none transition placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
          />
        </div>
      )}
      <div className="mt-6">{body}</div>
    </div>
  );
}

function MailItem({ mail }: { mail: Mail }) {
  return (
    <details className="group rounded-2xl border border-slate-200 bg-white shadow-sm open:shadow-md">
      <summary className="flex cursor-pointer list-none flex-col gap-1 rounded-2xl px-4 py-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:px-5 [&::-webkit-details-marker]:hidden">
        <span className="flex items-start justify-between gap-3">
          <span className="min-w-0 font-semibold break-words text-slate-900">{mail.subject}</span>
          <span
            className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${statusStyles[mail.status]}`}
          >
            {statusLabels[mail.status]}
          </span>
        </span>
        <span className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm text-slate-600">
          <span className="min-w-0 break-all">
            <span className="text-slate-500">To </span>
            <span className="font-medium text-slate-800">{mail.to}</span>
          </span>
          <time dateTime={mail.createdAt}>{absoluteTime(mail.createdAt)}</time>
        </span>
      </summary>
      <div className="border-t border-slate-100 px-4 py-4 sm:px-5">
        <p className="text-xs text-slate-500">
          {mail.kind}
          {mail.sentAt ? ` · sent ${absoluteTime(mail.sentAt)}` : ''}
        </p>
        <p className="mt-2 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800">
          {linkify(mail.text).map((part, index) =>
            part.kind === 'link' ? (
              <a
                key={index}
                href={part.href}
                rel="noreferrer"
                className="break-all font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              >
                {part.href}
              </a>
            ) : (
              <span key={index}>{part.text}</span>
            ),
          )}
        </p>
      </div>
    </details>
  );
}
