/** Cleaning a listing's text (issue 11's seen defects, one case each). */
import { describe, expect, it } from 'vitest';
import { cleanText, looksBroken, NEGATIVE, notAFeature, unshoutLine } from '../../src/captions/clean.ts';

describe('cleanText', () => {
  it('drops markup and invisible characters, keeps ® ™ and the words', () => {
    expect(cleanText('Notes<b>Plus</b>®\u200B for <i>everyone</i>™\uFEFF')).toBe('NotesPlus® for everyone™');
    expect(cleanText('**Bold** claims and _emphasis_ \u00AD here')).toBe('Bold claims and emphasis here');
    expect(cleanText('  Lines \n   with   spaces  ')).toBe('Lines\nwith spaces');
  });
  it('drops script and style elements with what they hold, comments, and tags whose attributes hold ">"', () => {
    expect(cleanText('Share Photos<script>alert(5)</script> Chat')).toBe('Share Photos Chat');
    expect(cleanText('<style type="text/css">p > b { color: red }</style>Share Photos')).toBe('Share Photos');
    expect(cleanText('<a title="a > b" onclick=\'x>y\'>Share Photos</a> and <!-- a note --> Chat')).toBe('Share Photos and Chat');
    expect(cleanText('Share Photos <SCRIPT src=x>alert(5)\nChat with friends')).toBe('Share Photos\nChat with friends');
    expect(cleanText('Tap <3 times> to zoom, 2 < 3')).toBe('Tap <3 times> to zoom, 2 < 3');
  });
});

describe('unshoutLine', () => {
  it('reads a line in capitals in sentence case, keeping acronyms', () => {
    expect(unshoutLine('TRACK EVERY WORKOUT WITH GPS. SHARE IT!', new Set(['GPS']))).toBe('Track every workout with GPS. Share it!');
    expect(unshoutLine('Sync with iCloud', new Set())).toBe('Sync with iCloud');
    expect(unshoutLine('NEW!', new Set())).toBe('NEW!');
    // Store and device names keep their own capitals (not "on the app store").
    expect(unshoutLine('THE CALMEST WORD GAME ON THE APP STORE AND GOOGLE PLAY', new Set())).toBe(
      'The calmest word game on the App Store and Google Play',
    );
    expect(unshoutLine('SYNCS YOUR IPHONE, IPAD AND ANDROID', new Set())).toBe('Syncs your iPhone, iPad and Android');
    expect(unshoutLine('IPHONEOGRAPHY TIPS FOR ANDROIDS', new Set())).toBe('Iphoneography tips for androids');
  });

  // Recordings re-read (hc1): a bullet's label in capitals kept them in a title-case voice (V).
  it('reads a label in capitals that opens a sentence-case line in sentence case', () => {
    expect(unshoutLine('• QUICK CAPTURE. Jot a note from any screen', new Set())).toBe('• Quick capture. Jot a note from any screen');
    expect(unshoutLine('OFFLINE MAPS for every trail you save', new Set())).toBe('Offline maps for every trail you save');
    expect(unshoutLine('CLOUD BACKUP TO ICLOUD: every night', new Set())).toBe('Cloud backup to iCloud: every night');
    // One long word, or an acronym, is no shouted label.
    expect(unshoutLine('GPS TRACK on every run', new Set(['GPS']))).toBe('GPS TRACK on every run');
    expect(unshoutLine('NEW: widgets for your home screen', new Set())).toBe('NEW: widgets for your home screen');
  });
});

describe('notAFeature', () => {
  it('names the lines that must never become captions', () => {
    expect(notAFeature('Atlantis 2, included.')).toBe('other apps');
    expect(notAFeature('If you enjoy the app we would appreciate an App Store review')).toBe('review request');
    expect(notAFeature('Unlock everything with Premium')).toBe('upsell');
    expect(notAFeature('Visit example.com to learn more')).toBe('boilerplate');
    expect(notAFeature('habit, tracker, goals, routine, streak, planner')).toBe('tags');
    expect(notAFeature('Track unlimited habits with a single tap')).toBeNull();
    expect(notAFeature('Upgrade to Pro for unlimited exports')).toBe('upsell');
    expect(notAFeature('Start your free trial today')).toBe('upsell');
    expect(notAFeature('Unlock MoneyJar Pro for unlimited jars')).toBe('upsell');
    // Selling points that share an upsell's words.
    expect(notAFeature('Pro photo editing, no subscription')).toBeNull();
    expect(notAFeature('40 cars to unlock and tune')).toBeNull();
    expect(notAFeature('No in-app purchases, ever')).toBeNull();
  });
});

describe('sentences', () => {
  it('spots a sentence whose words were lost, and complaints', () => {
    expect(looksBroken('Translate signs by just pointing your camera 94 languages.')).toBe(true);
    expect(looksBroken('Translate between 94 languages by pointing your camera.')).toBe(false);
    expect(NEGATIVE.test('Tired of forgetting your goals?')).toBe(true);
    expect(NEGATIVE.test('Build better habits daily')).toBe(false);
  });
});
