-- What each of a listing's own screenshots shows (issue 33, item 1), read once by OCR as uploaded
-- screens are (048), and kept by the picture's URL: the first set that frames the listing reads it,
-- every later set of any app that lists the same picture plans from the row. The pictures are the
-- stores' public data, so sharing the text across accounts tells nobody anything.
CREATE TABLE store_screen_texts (
  url text PRIMARY KEY,
  text text[] NOT NULL,
  read_at timestamptz NOT NULL DEFAULT now()
);
