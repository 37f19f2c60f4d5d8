import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import newIphoneUrl from '../content/new-iphone.md?url';
import { MarkdownText } from '#renderer/components/layout/markdown-text.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';
import { useTextFile } from '#renderer/components/hooks/use-text-file.ts';

/** /new-iphone: iPhone 16 launch information and FAQ. */
export function NewIphoneRoute() {
  usePageTitle('iPhone 16 launch');
  const file = useTextFile(newIphoneUrl);
  return (
    <Card className="text-page mx-auto">
      <Card.Body className="p-4">
        <h1 className="h3">iPhone 16 is coming to Shelfwatch</h1>
        <p className="lead">
          iPhone 16, iPhone 16 Plus, iPhone 16 Pro and iPhone 16 Pro Max will be supported no later
          than Thursday 19 September 2024, ahead of the in-store release on Friday 20 September.
        </p>
        {file.status === 'loaded' ? <MarkdownText text={file.text} /> : null}
        {file.status === 'failed' ? (
          <p className="text-danger" role="alert">
            Failed to load text. Please contact support.
          </p>
        ) : null}
        <Link to="/plans" className="btn btn-primary">
          Sign up for Shelfwatch
        </Link>
      </Card.Body>
    </Card>
  );
}
