/** Store markup to plain text: a listing's words, never its code. */
import { describe, expect, it } from 'vitest';
import { htmlToText, plainText } from '../../src/stores/text.ts';

describe('htmlToText (Play descriptions)', () => {
  it('drops script and style elements with their content, keeps the words and the breaks', () => {
    const html = '<b>Share Photos</b><script>alert(5)</script><br><style>b{color:red}</style>Chat &amp; call<br>Backup</p>Sync';
    expect(htmlToText(html)).toBe('Share Photos\nChat & call\nBackup\nSync');
    expect(htmlToText('<noscript>Enable JS</noscript><svg><text>logo</text></svg>Plain')).toBe('Plain');
  });
});

describe('plainText (App Store descriptions)', () => {
  it('decodes entities only: markup stays text here for the listing cleaner to judge', () => {
    expect(plainText('Chat &amp; call<br/>Backup')).toBe('Chat & call\nBackup');
    expect(plainText('2 &lt; 3')).toBe('2 < 3');
  });
});
