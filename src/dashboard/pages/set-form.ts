/** The create-a-set form and the table of sets, shared by the apps pages. */
import { VOICE_NAMES, deviceName, plural } from '../names.ts';
import { randomBytes } from 'node:crypto';
import type { JobSummary } from '../../sets/list.ts';
import { SCREENSHOT_SET_COST } from '../../sets/create.ts';
import { NARRATIVES } from '../../core/narratives.ts';
import {
  CAPTION_LENGTH_IDS,
  CAPTION_STYLE_IDS,
  CAPTION_STYLES,
  DEFAULT_COUNT,
  MAX_COUNT,
  OWN_SLIDE_LIMITS,
  type CaptionLength,
  type CaptionStyle,
} from '../../core/set.ts';
import { DEVICE_IDS, DEVICES, type Device } from '../../core/devices.ts';
import type { ScreenshotSetRequest } from '../../sets/create.ts';
import { DEFAULT_THEME, THEME_IDS, THEMES, type ThemeId } from '../../core/themes.ts';
import { html } from '../html.ts';
import { csrfField, describedBy, fieldError, statusBadge, when, type FieldError, type PageContext } from '../layout.ts';

export interface SetFormValues {
  device: string;
  captionStyle: string;
  captionLength: string;
  narrativeId: string;
  count: string;
  /** '' : the brand kit's default theme. */
  theme?: string;
  /** Your own captions, one headline a line: they set the slides (no story, no count). */
  captions?: string;
}

export interface SetFormState {
  values: SetFormValues;
  errors: FieldError[];
  notice?: string;
  /** A refused set's remedies (cannot_fill_set's `fixes`), offered next to the refusal. */
  fixes?: string[];
}

const DEFAULTS: SetFormValues = {
  device: 'iphone-69',
  captionStyle: 'aso-expert',
  captionLength: 'short',
  narrativeId: '',
  count: String(DEFAULT_COUNT),
};

const option = (value: string, label: string, selected: string, hint?: string) =>
  html`<option value="${value}" ${value === selected ? html` selected` : ''}${hint ? html` data-hint="${hint}"` : ''}>${label}</option>`;

/** The form's values as a request, or the fields that are wrong. */
export function parseSetForm(appId: string, v: SetFormValues): { request: ScreenshotSetRequest } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!(DEVICE_IDS as string[]).includes(v.device)) errors.push({ field: 'device', message: 'choose a device' });
  if (!(CAPTION_STYLE_IDS as string[]).includes(v.captionStyle)) errors.push({ field: 'captionStyle', message: 'choose a voice' });
  if (!(CAPTION_LENGTH_IDS as string[]).includes(v.captionLength)) errors.push({ field: 'captionLength', message: 'choose short or long' });
  if (v.narrativeId && !NARRATIVES.some((n) => n.id === v.narrativeId))
    errors.push({ field: 'narrativeId', message: 'choose a story from the list' });
  const captions = (v.captions ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (captions.length > MAX_COUNT) errors.push({ field: 'captions', message: `at most ${MAX_COUNT} lines, one a slide` });
  const long = captions.findIndex((l) => [...l].length > OWN_SLIDE_LIMITS.headline);
  if (long >= 0) errors.push({ field: 'captions', message: `line ${long + 1} is over ${OWN_SLIDE_LIMITS.headline} characters` });
  const count = Number(v.count);
  if (!captions.length && !v.narrativeId && !(/^\d+$/.test(v.count) && count >= 1 && count <= MAX_COUNT))
    errors.push({ field: 'count', message: `must be a whole number from 1 to ${MAX_COUNT}` });
  if (v.theme && !(THEME_IDS as readonly string[]).includes(v.theme))
    errors.push({ field: 'theme', message: 'choose a theme from the list' });
  if (errors.length) return { errors };
  return {
    request: {
      appId,
      device: v.device as Device,
      captionStyle: v.captionStyle as CaptionStyle,
      captionLength: v.captionLength as CaptionLength,
      ...(captions.length
        ? { slides: captions.map((headline) => ({ headline })) }
        : v.narrativeId
          ? { narrativeId: v.narrativeId }
          : { count }),
      ...(v.theme ? { theme: v.theme as ThemeId } : {}),
    },
  };
}

export function createSetForm(ctx: PageContext, appId: string, state: SetFormState | null, kitTheme: ThemeId = DEFAULT_THEME) {
  const v = state?.values ?? DEFAULTS;
  const errors = state?.errors ?? [];
  // A fresh idempotency key per form: a double click or a resent form replays the first
  // answer instead of charging twice.
  const once = randomBytes(16).toString('base64url');
  return html`<form method="post" action="/apps/${appId}/sets" class="card grid" novalidate>
    ${csrfField(ctx)}<input type="hidden" name="once" value="${once}" />
    <div>
      <label for="device">Device</label>
      <select id="device" name="device" ${describedBy(errors, 'device')}>
        ${DEVICE_IDS.map((d) => option(d, `${DEVICES[d].label} · ${DEVICES[d].width}×${DEVICES[d].height}`, v.device))}
      </select>
      ${fieldError(errors, 'device')}
    </div>
    <div>
      <label for="captionStyle">Voice</label>
      <select id="captionStyle" name="captionStyle" aria-describedby="captionStyle-hint" data-hint-target="captionStyle-hint">
        ${CAPTION_STYLE_IDS.map((s) => option(s, VOICE_NAMES[s], v.captionStyle, CAPTION_STYLES[s]))}
      </select>
      <p class="hint" id="captionStyle-hint">
        ${CAPTION_STYLES[(CAPTION_STYLE_IDS as string[]).includes(v.captionStyle) ? (v.captionStyle as CaptionStyle) : 'aso-expert']}
      </p>
    </div>
    <fieldset id="captionLength">
      <legend>Caption length</legend>
      ${CAPTION_LENGTH_IDS.map((l) => html`<label class="choice"><input type="radio" name="captionLength" value="${l}" ${l === v.captionLength ? html` checked` : ''} /> ${l === 'short' ? 'Short (headline only)' : 'Long (headline and subheadline)'}</label>`)}
    </fieldset>
    <div>
      <label for="narrativeId">Story</label>
      <select id="narrativeId" name="narrativeId" ${describedBy(errors, 'narrativeId')}>
        ${option('', 'None: choose the number of slides', v.narrativeId)}${NARRATIVES.map((n) => option(n.id, `${n.name} (${plural(n.roles.length, 'slide')})`, v.narrativeId))}
      </select>
      ${fieldError(errors, 'narrativeId')}
    </div>
    <div>
      <label for="count">Slides <span class="muted">(without a story)</span></label>
      <input
        id="count"
        name="count"
        type="number"
        min="1"
        max="${MAX_COUNT}"
        inputmode="numeric"
        value="${v.count}"
        ${describedBy(errors, 'count')}
      />
      ${fieldError(errors, 'count')}
    </div>
    <div>
      <label for="captions">Your own captions <span class="muted">(optional: one headline a line, a slide each)</span></label>
      <textarea id="captions" name="captions" rows="3" ${describedBy(errors, 'captions')}>
${v.captions ?? ''}</textarea
      >
      ${fieldError(errors, 'captions')}
    </div>
    <div>
      <label for="theme">Theme</label>
      <select id="theme" name="theme" ${describedBy(errors, 'theme')}>
        ${option('', `The brand kit's: ${THEMES[kitTheme].name}`, v.theme ?? '')}${THEME_IDS.map((t) => option(t, THEMES[t].name, v.theme ?? ''))}
      </select>
      ${fieldError(errors, 'theme')}
    </div>
    <div class="submit"><button type="submit">Create set (${SCREENSHOT_SET_COST} credits)</button></div>
  </form>`;
}

export function setsTable(sets: JobSummary[], withApp: boolean) {
  if (!sets.length) return html`<p>No sets yet.</p>`;
  return html`<div class="table-wrap">
    <table class="stack">
      <thead>
        <tr>
          <th scope="col">Set</th>
          ${withApp ? html`<th scope="col">App</th>` : ''}
          <th scope="col">Device</th>
          <th scope="col">Slides</th>
          <th scope="col">Status</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        ${sets.map(
          (s) =>
            html`<tr>
              <td data-label="Set">
                <a href="/sets/${s.id}"><code>${s.id.slice(-8)}</code><span class="visually-hidden"> (set ${s.id})</span></a>
                ${
                  s.parentJobId
                    ? html`<br /><span class="muted"
                          >revision of <a href="/sets/${s.parentJobId}"><code>${s.parentJobId.slice(-8)}</code></a></span
                        >`
                    : ''
                }
              </td>
              ${withApp ? html`<td data-label="App"><a href="/apps/${s.appId}">${s.appName}</a></td>` : ''}
              <td data-label="Device">${deviceName(s.request.device)}</td>
              <td data-label="Slides">
                ${s.slides ?? s.request.count}${
                  s.slides !== null && s.slides < s.request.count && !s.request.revision
                    ? html` <span class="muted">of ${s.request.count} asked</span>`
                    : ''
                }${s.request.narrativeId ? html` <span class="muted">(${s.request.narrativeId})</span>` : ''}
              </td>
              <td data-label="Status">${statusBadge(s.status)}</td>
              <td data-label="Created">${when(s.createdAt)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
