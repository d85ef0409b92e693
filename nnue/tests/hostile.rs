//! Malformed network files: every one is refused with its error, none
//! panics, and a good file round-trips, for both format versions (1: the
//! plain inputs; 2: with the input-set field, here the general buckets).

use movegen::Game;
use nnue::{architecture_hash, fnv1a32, Arch, InputSet, LoadError, Network};

fn small() -> Network {
    let net = Network::random(Game::Xiangqi, 8, 2, 7);
    assert!(net.is_some());
    net.unwrap_or_else(|| unreachable!())
}

fn bucketed_arch(hidden: usize) -> Arch {
    Arch {
        inputs: InputSet::GeneralBuckets,
        hidden,
        buckets: 2,
    }
}

/// A general-bucketed network: a version 2 file.
fn small_v2() -> Network {
    let net = Network::random_of(Game::Janggi, bucketed_arch(8), 7);
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
    assert_eq!(bytes.len(), nnue::network::file_size(Arch::plain(8, 2)));
    assert_eq!(
        bytes[4..8],
        1u32.to_le_bytes(),
        "a plain network is version 1"
    );
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
fn round_trip_v2() {
    let net = small_v2();
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), nnue::network::file_size(bucketed_arch(8)));
    assert_eq!(
        bytes.len(),
        28 + 2 * 7560 * 8 + 2 * 8 + 2 * 2 * 16 + 4 * 2 + 4
    );
    assert_eq!(bytes[4..8], 2u32.to_le_bytes());
    assert_eq!(bytes[24..28], 1u32.to_le_bytes(), "input set 1");
    let back = Network::from_bytes_for(&bytes, Game::Janggi);
    assert_eq!(back.as_ref(), Ok(&net));
    assert_eq!(back.map(|n| n.inputs()), Ok(InputSet::GeneralBuckets));
    assert!(format!("{net:?}").contains("general-buckets 7560x8x2x2"));
    assert_eq!(
        format!("{:?}", small()).split(',').nth(1),
        Some(" 1260x8x2x2")
    );
}

#[test]
fn a_version_2_file_may_declare_the_plain_set() {
    // The writer writes plain networks as version 1; a version 2 file
    // with input set 0 is the same network.
    let net = small();
    let v1 = net.to_bytes();
    let mut v2 = v1[..24].to_vec();
    v2[4..8].copy_from_slice(&2u32.to_le_bytes());
    v2.extend_from_slice(&0u32.to_le_bytes());
    v2.extend_from_slice(&v1[24..v1.len() - 4]);
    let sum = fnv1a32(&v2);
    v2.extend_from_slice(&sum.to_le_bytes());
    assert_eq!(Network::from_bytes(&v2), Ok(net));
}

#[test]
fn every_truncation_is_refused() {
    for bytes in [small().to_bytes(), small_v2().to_bytes()] {
        truncations_are_refused(&bytes);
    }
}

fn truncations_are_refused(bytes: &[u8]) {
    for len in 0..bytes.len() {
        let r = Network::from_bytes(&bytes[..len]);
        assert!(
            matches!(r, Err(LoadError::Truncated { .. })),
            "length {len}: {r:?}"
        );
    }
    let mut long = bytes.to_vec();
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
    for v in [0, 3, u32::MAX] {
        assert_eq!(
            Network::from_bytes(&with_field(&bytes, 4, v)),
            Err(LoadError::BadVersion(v))
        );
    }
    // A version 1 file relabelled 2: its first weights read as the
    // input-set field, and the rest no longer fits.
    assert!(Network::from_bytes(&with_field(&bytes, 4, 2)).is_err());
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
    let resized = with_field(
        &with_field(&bytes, 16, 16),
        12,
        architecture_hash(Arch::plain(16, 2)),
    );
    assert!(matches!(
        Network::from_bytes(&resized),
        Err(LoadError::Truncated { .. })
    ));
}

#[test]
fn bad_v2_header_fields_are_refused() {
    let bytes = small_v2().to_bytes();
    for code in [2, 7, u32::MAX] {
        assert_eq!(
            Network::from_bytes(&with_field(&bytes, 24, code)),
            Err(LoadError::BadInputSet(code))
        );
    }
    // The input set changed alone: the hash names the other set.
    assert!(matches!(
        Network::from_bytes(&with_field(&bytes, 24, 0)),
        Err(LoadError::BadArchitecture { .. })
    ));
    // The input set and its hash changed: the length is then wrong.
    let plain = with_field(
        &with_field(&bytes, 24, 0),
        12,
        architecture_hash(Arch::plain(8, 2)),
    );
    assert!(matches!(
        Network::from_bytes(&plain),
        Err(LoadError::TrailingBytes { .. })
    ));
    // A bucketed file relabelled version 1: the plain hash does not match.
    assert!(matches!(
        Network::from_bytes(&with_field(&bytes, 4, 1)),
        Err(LoadError::BadArchitecture { .. })
    ));
    // The v1 header's checks are still made on a v2 file.
    assert_eq!(
        Network::from_bytes(&with_field(&bytes, 16, 12)),
        Err(LoadError::BadHidden(12))
    );
    assert_eq!(
        Network::from_bytes(&with_field(&bytes, 20, 0)),
        Err(LoadError::BadBuckets(0))
    );
    assert_eq!(
        Network::from_bytes(&with_field(&bytes, 8, 2)),
        Err(LoadError::BadGame(2))
    );
    let resized = with_field(&with_field(&bytes, 16, 16), 12, {
        architecture_hash(bucketed_arch(16))
    });
    assert!(matches!(
        Network::from_bytes(&resized),
        Err(LoadError::Truncated { .. })
    ));
    // A v2 header cut inside its input-set field.
    for len in 24..28 {
        assert_eq!(
            Network::from_bytes(&bytes[..len]),
            Err(LoadError::Truncated { len, expected: 28 })
        );
    }
}

#[test]
fn damaged_bytes_fail_the_checksum() {
    // The first weight byte follows the header (24 bytes, or 28).
    for (bytes, first) in [(small().to_bytes(), 24), (small_v2().to_bytes(), 28)] {
        for at in [
            first,
            100,
            bytes.len() / 2,
            bytes.len() - 5,
            bytes.len() - 1,
        ] {
            let mut b = bytes.clone();
            b[at] ^= 0x10;
            assert!(
                matches!(Network::from_bytes(&b), Err(LoadError::BadChecksum { .. })),
                "byte {at}"
            );
        }
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
    for inputs in InputSet::ALL {
        let arch = Arch {
            inputs,
            hidden: h,
            buckets: 1,
        };
        let net = Network::from_weights(
            Game::Xiangqi,
            arch,
            vec![i16::MAX; inputs.inputs() * h],
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
        // Weights of the other set's length are refused.
        let wrong = Network::from_weights(
            Game::Xiangqi,
            arch,
            vec![0; 3 * nnue::INPUTS * h],
            vec![0; h],
            vec![0; 2 * h],
            vec![0],
        );
        assert!(wrong.is_none());
    }
}
