-- Nexmark q8, monitor new users: people who opened an auction in the
-- 10-second window they registered in.
SELECT p.id, p.name, p.starttime
  FROM (SELECT id, name, window.start AS starttime, window.end AS endtime
          FROM person WATERMARK date_time DELAY OF INTERVAL '0 seconds'
         GROUP BY id, name, window(date_time, '10 seconds')) p
  JOIN (SELECT seller, window.start AS starttime, window.end AS endtime
          FROM auction WATERMARK date_time DELAY OF INTERVAL '0 seconds'
         GROUP BY seller, window(date_time, '10 seconds')) a
    ON p.id = a.seller AND p.starttime = a.starttime AND p.endtime = a.endtime
