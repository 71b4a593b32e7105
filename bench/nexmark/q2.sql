-- Nexmark q2, selection: the bids on a few auctions.
SELECT auction, price FROM bid WHERE auction % 123 = 0
