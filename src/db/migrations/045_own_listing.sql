-- Apps before launch (issue 32): an app may be created from its own listing text (own_listing) before
-- it is in any store; a store URL added later (PATCH /apps/{id}) fills ios_listing / android_listing.
-- Such an app has no store icon until one is uploaded (icon: the uploaded icon's object key and
-- facts), so artwork_url may be null. listings_version counts changes to the listings: the processes'
-- caches of parsed listings and the charge's check before the charge compare it.
ALTER TABLE apps ADD COLUMN own_listing jsonb;
ALTER TABLE apps ADD COLUMN icon jsonb;
ALTER TABLE apps ADD COLUMN listings_version integer NOT NULL DEFAULT 1;
ALTER TABLE apps ALTER COLUMN artwork_url DROP NOT NULL;
ALTER TABLE apps DROP CONSTRAINT apps_check;
ALTER TABLE apps ADD CONSTRAINT apps_source CHECK (ios_listing IS NOT NULL OR android_listing IS NOT NULL OR own_listing IS NOT NULL);
ALTER TABLE apps ADD CONSTRAINT apps_store_artwork CHECK (artwork_url IS NOT NULL OR (ios_listing IS NULL AND android_listing IS NULL));
