//! Signing keys made in the test, their JWKS, and tokens signed with them.
#![allow(dead_code)]

use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use std::time::{SystemTime, UNIX_EPOCH};

/// A P-256 key pair, fresh for each test, and its key id.
pub struct SigningKey {
    pub kid: String,
    encoding: EncodingKey,
    x: String,
    y: String,
}

impl SigningKey {
    pub fn generate(kid: &str) -> Self {
        let pkcs8 =
            EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &SystemRandom::new())
                .expect("a P-256 key is generated");
        let pair =
            EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref()).unwrap();
        // An uncompressed point: 0x04, then x and y, 32 bytes each.
        let point = pair.public_key().as_ref();
        assert_eq!(point.len(), 65);
        Self {
            kid: kid.to_owned(),
            encoding: EncodingKey::from_ec_der(pkcs8.as_ref()),
            x: URL_SAFE_NO_PAD.encode(&point[1..33]),
            y: URL_SAFE_NO_PAD.encode(&point[33..65]),
        }
    }

    /// The public half as a JWK.
    pub fn jwk(&self) -> Value {
        json!({"kty": "EC", "crv": "P-256", "kid": self.kid, "use": "sig", "alg": "ES256",
               "x": self.x, "y": self.y})
    }

    /// `claims`, signed, with this key's id in the header.
    pub fn sign(&self, claims: &Value) -> String {
        self.sign_as(&self.kid, claims)
    }

    /// `claims` signed with this key but naming key `kid`.
    pub fn sign_as(&self, kid: &str, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(kid.to_owned());
        jsonwebtoken::encode(&header, claims, &self.encoding).expect("the token is signed")
    }
}

/// A JWKS document with these keys.
pub fn jwks(keys: &[&SigningKey]) -> String {
    json!({"keys": keys.iter().map(|k| k.jwk()).collect::<Vec<_>>()}).to_string()
}

pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// Claims valid for an hour from `issuer` for `audience`.
pub fn claims(issuer: &str, audience: &str) -> Value {
    json!({"iss": issuer, "aud": audience, "sub": "someone", "iat": now(), "exp": now() + 3600})
}
