import { describe, expect, it } from 'vitest';
import {
  fillPrerenderedPage,
  PRERENDER_MARKERS,
  PRERENDER_SETTINGS,
} from '#shared/domain/prerendered-page.ts';
import { formatSupportEndDate } from '#shared/domain/support-date.ts';

describe('the pre-rendered page filled with an install’s settings', () => {
  it('pre-renders with markers, the end date kept as written', () => {
    expect(formatSupportEndDate(PRERENDER_SETTINGS.supportEndDate)).toBe(
      PRERENDER_MARKERS.supportEndDate,
    );
  });

  it('puts each setting in place of its marker, escaped, the date worded as the banner does', () => {
    const template = `<p>ends on ${PRERENDER_MARKERS.supportEndDate}. <a href="mailto:${PRERENDER_MARKERS.supportEmail}">${PRERENDER_MARKERS.supportEmail}</a></p><a href="${PRERENDER_MARKERS.makerUrl}">${PRERENDER_MARKERS.makerName}</a>`;
    const html = fillPrerenderedPage(template, {
      supportEmail: 'help@studio.example',
      supportEndDate: '2025-09-08',
      maker: { name: `Tom & "Jerry's" <Apps>`, url: 'https://studio.example/?a=1&b=2' },
    });
    expect(html).toBe(
      '<p>ends on September 8th, 2025. <a href="mailto:help@studio.example">help@studio.example</a></p><a href="https://studio.example/?a=1&amp;b=2">Tom &amp; &quot;Jerry&#x27;s&quot; &lt;Apps&gt;</a>',
    );
  });

  it('leaves text that only looks like a marker alone', () => {
    expect(fillPrerenderedPage('__SHELFWATCH_OTHER__', PRERENDER_SETTINGS)).toBe(
      '__SHELFWATCH_OTHER__',
    );
  });
});
