//! Malformed network files: every one is refused with its error, none
//! panics, and a good file round-trips.

use movegen::Game;
use nnue::{architecture_hash, fnv1a32, LoadError, Network};

fn small() -> Network {
    let net = Network::random(Game::Xiangqi, 8, 2, 7);
    assert!(net.is_some());
    net.unwrap_or_else(|| unreachable!())
}

/// Rewrite a header field and the checksum (so that only the field is
/// wrong).
fn with_field(bytes: &[u8], at: usize, value: u32) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + 4].copy_from_slice(&value.to_le_bytes());
    let n = b.len() - 4;
    let sum = fnv1a32(&b[..n]);
    b[n..].copy_from_slice(&sum.to_le_bytes());
    b
}

#[test]
fn round_trip() {
    let net = small();
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), nnue::network::file_size(8, 2));
    assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
    assert_eq!(Network::from_bytes_for(&bytes, Game::Xiangqi), Ok(net));
    assert_eq!(
        Network::from_bytes_for(&bytes, Game::Janggi),
        Err(LoadError::WrongGame {
            expected: Game::Janggi,
            found: Game::Xiangqi
        })
    );
}

#[test]
fn every_truncation_is_refused() {
    let bytes = small().to_bytes();
    for len in 0..bytes.len() {
        let r = Network::from_bytes(&bytes[..len]);
        assert!(
            matches!(r, Err(LoadError::Truncated { .. })),
            "length {len}: {r:?}"
        );
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(
        Network::from_bytes(&long),
        Err(LoadError::TrailingBytes { .. })
    ));
}

#[test]
fn bad_header_fields_are_refused() {
    let bytes = small().to_bytes();
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert_eq!(Network::from_bytes(&magic), Err(LoadError::BadMagic));
    assert_eq!(
        Network::from_bytes(&with_field(&bytes, 4, 2)),
        Err(LoadError::BadVersion(2))
    );
    assert_eq!(
        Network::from_bytes(&with_field(&bytes, 8, 7)),
        Err(LoadError::BadGame(7))
    );
    assert!(matches!(
        Network::from_bytes(&with_field(&bytes, 12, 0xdead_beef)),
        Err(LoadError::BadArchitecture { .. })
    ));
    // Absurd sizes are refused before any size is computed from them.
    for h in [0, 4, 12, 2056, u32::MAX] {
        assert_eq!(
            Network::from_bytes(&with_field(&bytes, 16, h)),
            Err(LoadError::BadHidden(h))
        );
    }
    for b in [0, 17, u32::MAX] {
        assert_eq!(
            Network::from_bytes(&with_field(&bytes, 20, b)),
            Err(LoadError::BadBuckets(b))
        );
    }
    // A size change with a matching architecture hash: the length is
    // then wrong.
    let resized = with_field(&with_field(&bytes, 16, 16), 12, architecture_hash(16, 2));
    assert!(matches!(
        Network::from_bytes(&resized),
        Err(LoadError::Truncated { .. })
    ));
}

#[test]
fn damaged_bytes_fail_the_checksum() {
    let bytes = small().to_bytes();
    for at in [24, 100, bytes.len() / 2, bytes.len() - 5, bytes.len() - 1] {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        assert!(
            matches!(Network::from_bytes(&b), Err(LoadError::BadChecksum { .. })),
            "byte {at}"
        );
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut s = 1u64;
    for len in [0usize, 3, 24, 25, 1000] {
        for _ in 0..50 {
            let v: Vec<u8> = (0..len)
                .map(|_| {
                    s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (s >> 56) as u8
                })
                .collect();
            assert!(Network::from_bytes(&v).is_err());
        }
    }
}

#[test]
fn extreme_weights_do_not_panic() {
    // All weights at the i16 limits: the accumulator wraps and the output
    // is meaningless, but nothing overflows into a panic.
    let h = 8;
    let net = Network::from_weights(
        Game::Xiangqi,
        h,
        1,
        vec![i16::MAX; nnue::INPUTS * h],
        vec![i16::MAX; h],
        vec![i16::MIN; 2 * h],
        vec![i32::MIN],
    );
    assert!(net.is_some());
    if let Some(net) = net {
        let pos = movegen::Position::startpos(movegen::Variant::Xiangqi);
        let _ = net.evaluate_position(&pos);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
    }
}
