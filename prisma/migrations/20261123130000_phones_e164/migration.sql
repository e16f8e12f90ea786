-- Phones are stored in E.164 with the plus ("+79161234567", "+998919800555"),
-- read with libphonenumber-js (server/orders/phone.ts). Rows written before
-- were digits only with the country code ("79161234567"): the same number
-- with the plus in front. Nothing else changes, so the blacklist, the
-- clients' history and their bonuses keep matching.

-- A phone can be known in both forms only if a row was written in E.164 by
-- hand: the digits-only row is then left as it is (the phone is unique), for
-- an operator to merge.
UPDATE client SET phone = '+' || phone
 WHERE phone ~ '^[0-9]{8,15}$'
   AND NOT EXISTS (SELECT 1 FROM client e WHERE e.phone = '+' || client.phone);

UPDATE blacklisted_phone SET phone = '+' || phone
 WHERE phone ~ '^[0-9]{8,15}$'
   AND NOT EXISTS (SELECT 1 FROM blacklisted_phone e WHERE e.phone = '+' || blacklisted_phone.phone);

UPDATE orders SET phone = '+' || phone WHERE phone ~ '^[0-9]{8,15}$';

UPDATE driver SET phone = '+' || phone WHERE phone ~ '^[0-9]{8,15}$';
