import Card from 'react-bootstrap/Card';
import type { ReactNode } from 'react';
import { MarkdownText } from './markdown-text.tsx';
import { SupportEmailButton } from './support-email-button.tsx';
import { useTextFile } from '#renderer/components/hooks/use-text-file.ts';

/** Props of a Markdown text page (FAQ and legal pages). */
export type TextPageProps = {
  url: string;
  heading: string;
  isHeadingHidden?: boolean;
  subtitle?: string;
  failureText: string;
  prompt: string;
};

/** A 700 px centred card of Markdown fetched on mount, closing with the support button. */
export function TextPage({
  url,
  heading,
  isHeadingHidden = false,
  subtitle,
  failureText,
  prompt,
}: TextPageProps) {
  const file = useTextFile(url);
  let body: ReactNode = null;
  if (file.status === 'loaded') {
    body = <MarkdownText text={file.text} />;
  } else if (file.status === 'failed') {
    body = (
      <p className="text-danger" role="alert">
        {failureText}
      </p>
    );
  }
  return (
    <Card className="text-page mx-auto">
      <Card.Body className="p-4">
        <h1 className={isHeadingHidden ? 'visually-hidden' : 'h3'}>{heading}</h1>
        {subtitle === undefined ? null : <p className="text-body-secondary">{subtitle}</p>}
        <div aria-busy={file.status === 'loading'}>{body}</div>
        <hr />
        <p>{prompt}</p>
        <SupportEmailButton />
      </Card.Body>
    </Card>
  );
}
