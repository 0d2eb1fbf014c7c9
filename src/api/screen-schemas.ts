/** The Screen resource: the upload's answer and the list's items. */
import { Type } from '@sinclair/typebox';
import { SCREEN_FAMILIES } from '../core/families.ts';
import { Nullable, StringEnum } from '../core/typebox.ts';

export const ScreenSchema = Type.Object(
  {
    screenId: Type.String({ description: 'scr_ plus a sortable, unguessable id.', examples: ['scr_01JD2ZK5T8Q3W4E5R6T7Y8V9GH'] }),
    family: StringEnum(SCREEN_FAMILIES, { description: 'The device family whose sets frame it.' }),
    width: Type.Integer({ examples: [1290] }),
    height: Type.Integer({ examples: [2796] }),
    bytes: Type.Integer({ description: 'The size as stored: metadata (EXIF, XMP, text chunks, ICC profiles) is stripped on upload.' }),
    sha256: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description: 'The SHA-256 of the file as uploaded, so that a client recognises its own file.',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    text: Nullable(Type.Array(Type.String()), {
      description:
        'What the screen shows: its visible text (titles, tabs, buttons), read once by OCR after the upload, line by line. null until read (the upload answers before), or when it could not be read. Planning puts each caption over the screen whose text it speaks of.',
      examples: [['Budgets', 'Groceries $420 of $500', 'Rent $1,200']],
    }),
  },
  { title: 'Screen' },
);

export const AppParams = Type.Object({ appId: Type.String({ description: 'An appId from POST /public/v1/apps.' }) });
export const ScreenParams = Type.Object({
  appId: Type.String(),
  screenId: Type.String({ description: 'A screenId from POST /public/v1/apps/{appId}/screens.' }),
});
