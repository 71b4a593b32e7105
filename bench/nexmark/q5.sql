-- Nexmark q5, hot items: bids per auction over 10-second windows sliding
-- every 2 seconds (the counting half of Nexmark's q5; the max-per-window
-- half would be a second aggregation over this one's output).
SELECT auction, window.start AS starttime, window.end AS endtime, count(*) AS num
  FROM bid WATERMARK date_time DELAY OF INTERVAL '0 seconds'
 GROUP BY auction, window(date_time, '10 seconds', '2 seconds')
