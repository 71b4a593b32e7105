-- Clickstream example: JSON files dropped into a directory, enriched with a
-- static table of campaigns, counted per campaign and 1-minute window.
-- Run it with psql -f; it uses the directory /tmp/sluice-clicks.
\! rm -rf /tmp/sluice-clicks && mkdir -p /tmp/sluice-clicks
CREATE TABLE IF NOT EXISTS example_campaigns (campaign_id STRING, name STRING);
INSERT INTO example_campaigns VALUES ('c1', 'spring sale'), ('c2', 'newsletter');
CREATE STREAM IF NOT EXISTS example_clicks (campaign_id STRING, user_id STRING, event_time TIMESTAMP)
  USING file OPTIONS (path '/tmp/sluice-clicks', format 'json')
  WATERMARK event_time DELAY OF INTERVAL '1 minute';
\! printf '{"campaign_id":"c1","user_id":"u1","event_time":"2024-05-01 12:00:05"}\n{"campaign_id":"c2","user_id":"u2","event_time":"2024-05-01 12:00:40"}\n{"campaign_id":"c1","user_id":"u3","event_time":"2024-05-01 12:03:00"}\n' > /tmp/sluice-clicks/.batch1 && mv /tmp/sluice-clicks/.batch1 /tmp/sluice-clicks/batch1.json
CREATE QUERY IF NOT EXISTS example_clicks_per_minute TRIGGER AVAILABLE NOW AS
  SELECT window.start AS minute, c.name AS campaign, count(*) AS clicks
  FROM example_clicks k JOIN example_campaigns c ON k.campaign_id = c.campaign_id
  GROUP BY window(k.event_time, '1 minute'), c.name;
AWAIT QUERY example_clicks_per_minute;
SELECT * FROM example_clicks_per_minute ORDER BY minute, campaign;
