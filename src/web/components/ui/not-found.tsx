import type { ReactNode } from 'react';
import { ApiError } from '../../lib/api';
import { EmptyState } from './empty-state';
import { PageHeader } from './page-header';

/** A 404 (or a malformed id, 400) means "not yours or not there"; anything else is a load error. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/** The page a person sees for an id that leads nowhere: what was not found, why, and where to go instead. */
export function NotFoundPage({
  heading,
  title,
  text,
  icon,
  children,
}: {
  heading: string;
  title: string;
  text: string;
  icon: string;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={heading} />
      <EmptyState icon={icon} title={title} text={text}>
        {children}
      </EmptyState>
    </>
  );
}
