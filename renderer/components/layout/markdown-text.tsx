import Markdown from 'react-markdown';

/**
 * Renders trusted-but-plain Markdown: react-markdown's default URL filter keeps only http,
 * https, irc, ircs, mailto and xmpp links (others become empty), and raw HTML is not rendered.
 */
export function MarkdownText({ text }: { text: string }) {
  return (
    <div className="markdown-text">
      <Markdown skipHtml>{text}</Markdown>
    </div>
  );
}
