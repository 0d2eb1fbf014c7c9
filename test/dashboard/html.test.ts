import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { html, safeUrl, trusted } from '../../src/dashboard/html.ts';
import { safeNext } from '../../src/dashboard/pages/auth.ts';

describe('html templates', () => {
  it('escape every interpolated value unless it is Html itself', () => {
    const name = `<script>alert("x")</script>&'`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
    expect(html`<ul>${['<a>', html`<li>ok</li>`, null, undefined, false, 3]}</ul>`.value).toBe('<ul>&lt;a&gt;<li>ok</li>3</ul>');
    expect(html`${trusted('<br>')}`.value).toBe('<br>');
  });

  it('no string ever yields markup: any text comes out without <, >, " or \'', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(html`${s}`.value).not.toMatch(/[<>"']/);
        expect(html`${s}`.value.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&');
      }),
    );
  });

  it('keep only http(s) and same-origin URLs', () => {
    expect(safeUrl('https://is1-ssl.mzstatic.com/a.png')).toBe('https://is1-ssl.mzstatic.com/a.png');
    expect(safeUrl('/api/v1/public/v1/jobs/job_x/slides/1.png?sig=a')).toBe('/api/v1/public/v1/jobs/job_x/slides/1.png?sig=a');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:x', 'data:text/html,x', '//evil.example/x', ' javascript:x', null, undefined, ''])
      expect(safeUrl(bad)).toBe('');
  });

  it('send a signed-in user only to a path of this site', () => {
    expect(safeNext('/apps/app_1?x=1')).toBe('/apps/app_1?x=1');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', '', '/sign-out', 'apps'])
      expect(safeNext(bad)).toBe('/keys');
  });
});
