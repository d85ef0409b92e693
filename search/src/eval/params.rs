//! Every evaluation parameter, as named integers, in one place so that
//! they can be tuned from game data later.
//!
//! Values are centipawns. `[mg, eg]` pairs are tapered by the phase (the
//! chariots, horses and cannons left on the board). Piece-square tables
//! are half tables, `[rank][file]` for files `a..=e` (file `e` is the
//! central file), seen from the owner's side (rank 0 = own back rank); the
//! right half mirrors the left, which keeps the evaluation left-right
//! symmetric.

/// A middlegame/endgame pair.
pub type Pair = [i32; 2];

/// Half piece-square table: 10 ranks × 5 files (a..e).
pub type Half = [[i16; 5]; 10];

/// Phase weight of a chariot, horse, cannon (all others count 0).
pub const PHASE_CHARIOT: i32 = 4;
/// See [`PHASE_CHARIOT`].
pub const PHASE_HORSE: i32 = 2;
/// See [`PHASE_CHARIOT`].
pub const PHASE_CANNON: i32 = 2;
/// Phase of the full board (two of each per side).
pub const PHASE_MAX: i32 = 4 * (PHASE_CHARIOT + PHASE_HORSE + PHASE_CANNON);

/// Bonus for having the move.
pub const TEMPO: i32 = 12;

/// Per-game parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameParams {
    /// Material by `PieceKind::index()` (0 and General unused).
    pub material: [Pair; 8],
    /// Piece-square tables by `PieceKind::index()`.
    pub pst: [Half; 8],
    /// Mobility: bonus per reachable point beyond the baseline, by kind.
    pub mobility: [Pair; 8],
    /// Mobility baseline (points a piece "normally" reaches), by kind.
    pub mobility_base: [i32; 8],
    /// Missing advisor/guard, per enemy attacking piece (mg).
    pub missing_advisor: i32,
    /// Missing elephant, per enemy attacking piece (mg).
    pub missing_elephant: i32,
    /// Enemy chariot when the general's file has no own piece in front.
    pub open_file_chariot: i32,
    /// Enemy cannon on the general's file behind two pieces (a threat).
    pub cannon_on_file: i32,
    /// Enemy cannon on the central file (mg), typical opening pressure.
    pub central_cannon: i32,
    /// Enemy cannon facing the general with nothing between ("empty-head
    /// cannon"): any piece stepping between becomes a screen and gives
    /// check, which paralyses the defence.
    pub open_head_cannon: i32,
    /// Danger weight of an enemy piece near the palace, by kind.
    pub attacker_weight: [i32; 8],
    /// Danger scaling numerator per attacker (danger * n * this / 16).
    pub attack_scale: i32,
    /// Bonus per connected pair of chariots on one line (eg, mg).
    pub connected_chariots: Pair,
    /// Value of a piece, by kind, per piece on the board (both sides,
    /// generals not counted) above [`CROWD_BASE`], in eighths: a cannon
    /// needs screens, horses and elephants are blocked on a full board.
    pub crowd: [Pair; 8],
    /// Danger per point of the enemy palace a piece attacks, by kind.
    pub palace_attack: [i32; 8],
    /// Scale of the palace-attack danger (0 turns the term off):
    /// `units * attackers * this / 64`.
    pub palace_scale: i32,
    /// Bonus for attacking an enemy piece of this kind with a piece worth
    /// less (a soldier, guard or elephant on a horse, a cannon on a
    /// chariot…): the attacked side must spend a move or lose material.
    pub threat: [Pair; 8],
    /// Bonus per pair of own soldiers side by side on one rank (they
    /// guard each other: a Janggi soldier captures sideways).
    pub soldier_pair: Pair,
}

/// The board count at which [`GameParams::crowd`] adds nothing.
pub const CROWD_BASE: i32 = 16;

/// Xiangqi parameters. Set by hand at first, then every group, piece-square
/// tables included, was fitted to the 25,000-node search scores of 776
/// self-play games (`jiang datagen --variant xiangqi --nodes 25000 --seed
/// 31`, 139,159 positions, every tenth game held out: validation loss
/// 0.001548 to 0.001367 with `jiang tune --variant xiangqi --holdout 10
/// --lambda 0`). The fit raised the chariot and cannon, switched on the
/// threat, crowd and soldier-pair terms.
pub const XIANGQI: GameParams = GameParams {
    material: [
        [0, 0],
        [0, 0],
        [115, 100],
        [116, 105],
        [306, 336],
        [710, 726],
        [350, 300],
        [47, 66],
    ],
    pst: [
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        // General
        [
            [0, 0, 0, 4, 10],
            [0, 0, 0, -12, -8],
            [0, 0, 0, -22, -28],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        // Advisor
        [
            [0, 0, 0, -2, 0],
            [0, 0, 0, 0, 6],
            [0, 0, 0, -8, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        // Elephant
        [
            [0, 0, 0, -2, 2],
            [0, 0, 0, -2, 0],
            [-8, 0, 0, -2, 4],
            [0, 2, 0, -2, 0],
            [-4, -2, -6, -4, -4],
            [-2, 0, 0, -2, 0],
            [2, 0, 0, -2, 0],
            [0, 0, 0, -2, 0],
            [-2, -2, -2, -4, -2],
            [0, 0, 0, -2, 0],
        ],
        // Horse
        [
            [-40, -16, -10, 12, -44],
            [-16, 0, -2, -10, -16],
            [0, -2, 2, 6, 0],
            [12, 0, 10, 0, 16],
            [-2, 20, 18, 22, 22],
            [28, 34, 12, 28, 22],
            [6, 40, 8, 26, 8],
            [42, 22, 14, 34, 32],
            [42, 50, 34, 18, 26],
            [28, 38, 4, 20, 44],
        ],
        // Chariot
        [
            [-22, 8, 0, 0, 16],
            [-12, 0, -6, 4, -24],
            [-12, 0, 8, 10, 6],
            [12, 18, 22, 24, 22],
            [8, 14, 20, 18, 22],
            [8, 12, 20, 22, 20],
            [14, 28, 24, 22, 24],
            [8, 18, 14, 28, 34],
            [14, 26, 18, 18, 6],
            [8, 16, 8, 16, 32],
        ],
        // Cannon
        [
            [-12, -14, -6, 30, 18],
            [8, 10, 14, 12, 22],
            [8, 8, 16, 10, 26],
            [2, 6, 8, 12, 22],
            [8, 8, 18, 14, 22],
            [12, 4, 2, 8, 18],
            [8, 18, 6, 8, 18],
            [18, 10, 0, -4, -14],
            [26, 0, -2, -4, -26],
            [24, 18, -6, -22, -2],
        ],
        // Soldier
        [
            [-2, 0, 0, 0, 0],
            [-2, 0, 0, 0, 0],
            [-2, 0, 0, 2, 0],
            [-8, 0, -12, -2, 8],
            [-10, -2, -4, -2, 6],
            [8, 16, 18, 47, 42],
            [16, 27, 34, 42, 42],
            [10, 30, 43, 57, 64],
            [2, 12, 30, 43, 50],
            [-4, -5, -16, -14, -18],
        ],
    ],
    mobility: [
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 4],
        [10, 8],
        [5, 1],
        [1, 3],
        [0, 0],
    ],
    mobility_base: [0, 0, 0, 0, 4, 8, 6, 0],
    missing_advisor: 12,
    missing_elephant: 12,
    open_file_chariot: 31,
    cannon_on_file: 20,
    central_cannon: 10,
    open_head_cannon: 50,
    attacker_weight: [0, 0, 0, 0, 16, 22, -4, 12],
    attack_scale: 10,
    connected_chariots: [14, 6],
    crowd: [
        [0, 0],
        [0, 0],
        [0, 0],
        [2, 4],
        [2, 0],
        [-16, -28],
        [-10, 2],
        [0, 0],
    ],
    palace_attack: [0, 0, 0, 0, 2, -6, 2, -2],
    palace_scale: -10,
    threat: [
        [0, 0],
        [0, 0],
        [32, 10],
        [32, 18],
        [12, 0],
        [10, -6],
        [10, 14],
        [0, 0],
    ],
    soldier_pair: [-4, -16],
};

/// Janggi parameters. The material started from the traditional point
/// values (chariot 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2)
/// scaled to centipawns. Every group, piece-square tables included, was
/// first fitted to the 5,000-node search scores of 1,313 self-play games
/// (`jiang datagen --variant janggi --nodes 5000 --seed 11`); that fit
/// switched on the threat terms (a piece attacked by a cheaper one).
/// Every group but king safety and palace attacks was then refitted to
/// the 25,000-node scores of 941 games played with those weights
/// (`jiang datagen --variant janggi --nodes 25000 --seed 41 --games 941`,
/// 150,567 positions; `jiang tune --variant janggi --holdout 10 --lambda 0
/// --freeze king,palace`: validation loss 0.009750 to 0.009012). The
/// king and palace groups stay as the first fit set them: fits that
/// lowered them won short searches and lost long games by mate.
pub const JANGGI: GameParams = GameParams {
    material: [
        [0, 0],
        [0, 0],
        [126, 216],
        [200, 186],
        [250, 342],
        [668, 848],
        [330, 372],
        [98, 154],
    ],
    pst: [
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        // General
        [
            [0, 0, 0, 14, 32],
            [0, 0, 0, 6, 38],
            [0, 0, 0, -16, -24],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        // Guard
        [
            [0, 0, 0, 4, 8],
            [0, 0, 0, 18, 20],
            [0, 0, 0, 8, -20],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        // Elephant
        [
            [28, 2, 6, 24, 30],
            [20, -4, -4, 20, 26],
            [-30, 10, -34, 32, 14],
            [16, 28, 12, 12, 22],
            [18, 34, 30, -8, 16],
            [6, 38, -14, -4, 0],
            [12, 42, 8, 4, -28],
            [22, -70, 6, -34, -20],
            [10, -32, -18, -56, -106],
            [-72, -32, -14, -58, -132],
        ],
        // Horse
        [
            [-20, -24, -22, -6, -32],
            [-28, -18, -6, 8, -14],
            [-28, -4, 10, 10, 0],
            [6, 4, 10, 12, 38],
            [10, 24, 30, 22, 28],
            [32, 30, 18, 38, 26],
            [46, 28, 16, 22, 18],
            [44, 10, 16, -20, 38],
            [50, 26, 20, -4, 50],
            [22, 28, 26, 0, 108],
        ],
        // Chariot
        [
            [-10, 2, 12, -38, -78],
            [-2, -6, 14, 10, 0],
            [2, 14, 20, 20, -6],
            [12, 24, 28, 16, 12],
            [18, 24, 30, 16, 22],
            [16, 36, 36, 34, 38],
            [32, 34, 40, 34, 32],
            [28, 34, 40, 58, 24],
            [24, 30, 34, 38, 42],
            [10, 18, 20, 64, 32],
        ],
        // Cannon
        [
            [12, 10, 28, 46, 42],
            [2, 12, 24, 36, -20],
            [16, 6, 20, 28, 30],
            [-38, -48, -8, 8, 22],
            [16, -2, -26, 20, 2],
            [-48, -10, -14, 4, -6],
            [-46, -22, -18, 6, 12],
            [-92, -12, -36, -36, 0],
            [-32, -22, -34, -38, -28],
            [-48, -34, -24, -22, 12],
        ],
        // Soldier
        [
            [0, -4, 0, -4, 2],
            [0, -2, 0, -2, 0],
            [-2, -2, 0, -2, 0],
            [-28, -10, -2, 8, 12],
            [-32, -12, 0, 10, 16],
            [-22, -4, 14, 26, 32],
            [-6, 4, 30, 26, 32],
            [14, 13, 10, 80, 60],
            [-22, -25, -30, 52, -20],
            [-105, -100, -81, -36, 82],
        ],
    ],
    mobility: [
        [0, 0],
        [0, 0],
        [0, 0],
        [8, 4],
        [1, 10],
        [1, 7],
        [2, 4],
        [0, 0],
    ],
    mobility_base: [0, 0, 0, 3, 4, 8, 4, 0],
    missing_advisor: -6,
    missing_elephant: -12,
    open_file_chariot: 4,
    cannon_on_file: 16,
    central_cannon: 26,
    open_head_cannon: 48,
    attacker_weight: [0, 0, 0, 6, 42, 30, -36, 6],
    attack_scale: 4,
    connected_chariots: [0, 12],
    crowd: [
        [0, 0],
        [0, 0],
        [0, 0],
        [-20, -40],
        [-40, -22],
        [-16, -76],
        [-48, -56],
        [0, 0],
    ],
    palace_attack: [0, 0, 0, 2, 24, 4, 2, 46],
    palace_scale: 26,
    threat: [
        [0, 0],
        [0, 0],
        [68, 14],
        [42, 42],
        [66, 20],
        [42, 4],
        [30, 70],
        [0, 0],
    ],
    soldier_pair: [6, 4],
};
