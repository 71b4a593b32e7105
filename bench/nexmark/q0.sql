-- Nexmark q0, pass-through: every bid as it is.
SELECT auction, bidder, price, date_time, extra FROM bid
