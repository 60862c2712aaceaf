//! What the trace tools share: wire enums, error mapping, text shortening.
