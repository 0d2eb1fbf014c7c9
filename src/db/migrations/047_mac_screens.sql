-- Mac screens (issue 30, item 6): an uploaded 16:10 screen of a Mac app is the `mac` family's,
-- framed by `mac` sets as a window.
ALTER TABLE screens DROP CONSTRAINT screens_family_check;
ALTER TABLE screens ADD CONSTRAINT screens_family_check CHECK (family IN ('iphone', 'ipad', 'mac', 'android-phone', 'android-tablet'));
