import { useEffect, useState } from 'react';

/** A bundled text file's state: empty until it loads, then the text or a failure. */
export type TextFileState =
  { status: 'loading' } | { status: 'loaded'; text: string } | { status: 'failed' };

/** GETs a bundled file (Markdown pages) on mount and reads it as text. */
export function useTextFile(url: string): TextFileState {
  const [state, setState] = useState<TextFileState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    fetch(url, { signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) {
          throw new Error(`HTTP ${response.status} for ${url}`);
        }
        setState({ status: 'loaded', text: await response.text() });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) {
          return;
        }
        console.error('Text page could not be loaded', error);
        setState({ status: 'failed' });
      });
    return () => controller.abort();
  }, [url]);
  return state;
}
