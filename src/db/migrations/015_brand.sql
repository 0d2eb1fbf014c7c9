-- The app's brand: the colours taken from its icon (computed once, by the first set that could
-- fetch the icon, and kept: the icon of a stored listing does not change) and the brand kit its
-- owner set (colours, font, icon badge, default theme). Both jsonb, checked by src/brand/.
ALTER TABLE apps ADD COLUMN icon_colors jsonb;
ALTER TABLE apps ADD COLUMN brand_kit jsonb;
