// The page's mrkdwn renderer: Slack's formatting, and nothing unsafe gets through.

import { describe, expect, it } from 'vitest';
import { formatSlackDate, mrkdwnToHtml } from '../../src/sandbox/page/mrkdwn.js';

const ctx = {
  users: { U0SBALICE: 'Alice Adams' },
  channels: { C0SBGENERAL: 'general' },
  tz: 'America/New_York',
  now: new Date('2026-03-10T12:00:00Z'),
};

describe('mrkdwnToHtml', () => {
  it('renders bold, italic, strike and code, but not inside words or code', () => {
    expect(mrkdwnToHtml('*bold* _it_ ~gone~ `a*b*c`', ctx)).toBe(
      '<b>bold</b> <i>it</i> <s>gone</s> <code>a*b*c</code>',
    );
    expect(mrkdwnToHtml('2*3*4 and snake_case_name', ctx)).toBe('2*3*4 and snake_case_name');
    expect(mrkdwnToHtml('```\nconst *x* = 1;\n```', ctx)).toBe('<pre>const *x* = 1;\n</pre>');
  });

  it('renders links, mentions and channels', () => {
    expect(mrkdwnToHtml('See <https://example.com/a?b=1&amp;c=2|*the task*>', ctx)).toBe(
      'See <a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener"><b>the task</b></a>',
    );
    expect(mrkdwnToHtml('<@U0SBALICE> in <#C0SBGENERAL> <!here>', ctx)).toBe(
      '<span class="mention">@Alice Adams</span> in <span class="mention">#general</span> <span class="mention">@here</span>',
    );
    expect(mrkdwnToHtml('<mailto:bob@example.com|Bob>', ctx)).toContain(
      'href="mailto:bob@example.com"',
    );
  });

  it('escapes HTML and refuses script links', () => {
    const html = mrkdwnToHtml(
      '&lt;img src=x onerror=alert(1)&gt; <javascript:alert(1)|click> <b>',
      ctx,
    );
    expect(html).not.toContain('<img');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mrkdwnToHtml('<https://x.com/"onmouseover="alert(1)|x>', ctx)).not.toContain(
      '"onmouseover',
    );
  });

  it('renders quotes, line breaks and emoji', () => {
    expect(mrkdwnToHtml('> quoted\nnext :white_check_mark: :not_an_emoji:', ctx)).toBe(
      '<q>quoted</q><br>next ✅ :not_an_emoji:',
    );
  });

  it('formats <!date> in the reader’s time zone, falling back to the given text', () => {
    // 2026-03-10T12:00:00Z is 8:00 AM in New York (EDT since March 8).
    expect(mrkdwnToHtml('<!date^1773144000^{date_short_pretty} at {time}|2026-03-10>', ctx)).toBe(
      '<time>Today at 8:00 AM</time>',
    );
    expect(mrkdwnToHtml('<!date^nope^{date}|March 10>', ctx)).toBe('<time>March 10</time>');
  });
});

describe('formatSlackDate', () => {
  it('knows Slack’s tokens', () => {
    const out = formatSlackDate(
      1392734382,
      '{date_num}|{date}|{date_short}|{date_long}|{time}|{time_secs}',
      'UTC',
    );
    expect(out).toBe(
      '2014-02-18|February 18th, 2014|Feb 18, 2014|Tuesday, February 18th, 2014|2:39 PM|2:39:42 PM',
    );
    const now = new Date('2014-02-19T10:00:00Z');
    expect(formatSlackDate(1392734382, '{date_pretty}', 'UTC', now)).toBe('Yesterday');
    expect(
      formatSlackDate(1392734382, '{date_pretty}', 'UTC', new Date('2014-03-01T00:00:00Z')),
    ).toBe('February 18th, 2014');
  });
});
