import { describe, expect, it } from 'vitest';
import {
  renderInvalidLinkPage,
  renderUnsubscribeConfirmPage,
  renderUnsubscribedPage,
} from '#server/notify/unsubscribe-pages.ts';

describe('unsubscribe pages', () => {
  const pages = [
    renderUnsubscribeConfirmPage('/v2/notifications/unsubscribe?token=a%26b', false),
    renderUnsubscribedPage(true),
    renderUnsubscribedPage(false),
    renderInvalidLinkPage(),
  ];

  it('are branded like the site: logo, name, styles and a link home', () => {
    for (const page of pages) {
      expect(page).toMatch(
        /<header><a class="brand" href="\/"><svg[^>]*>.*<\/svg><span>Shelfwatch<\/span><\/a><\/header>/,
      );
      expect(page).toContain('--primary:#0d6efd');
      expect(page).toContain('prefers-color-scheme:dark');
      expect(page).toContain('<a href="/">Back to Shelfwatch</a>');
      expect(page).toMatch(/<title>[^<]+ · Shelfwatch<\/title>/);
    }
  });

  it('keep the confirm form posting to the escaped action', () => {
    expect(pages[0]).toContain(
      '<form method="post" action="/v2/notifications/unsubscribe?token=a%26b">',
    );
    expect(pages[0]).toContain('<button type="submit">Unsubscribe</button>');
  });
});
