-- How an App Store connection puts screenshots on the store (issue 22, item 4):
-- 'screenshot-sets' (appScreenshotSets / appScreenshots, what fastlane uses; the default) or
-- 'asset-library' (App Store Connect API 4.5's App Asset Library: each picture uploaded once into
-- the app's library, then placed per localization). Google Play connections have none.
ALTER TABLE store_connections ADD COLUMN app_store_upload text CHECK (app_store_upload IN ('screenshot-sets', 'asset-library'));
UPDATE store_connections SET app_store_upload = 'screenshot-sets' WHERE store = 'app-store';
ALTER TABLE store_connections ADD CONSTRAINT store_connections_upload_path CHECK ((store = 'app-store') = (app_store_upload IS NOT NULL));
