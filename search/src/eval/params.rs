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

/// Xiangqi parameters.
pub const XIANGQI: GameParams = GameParams {
    //            -   K        A           B           N           R           C           P
    material: [
        [0, 0],
        [0, 0],
        [115, 100],
        [110, 105],
        [300, 330],
        [650, 690],
        [320, 300],
        [35, 60],
    ],
    pst: [
        [[0; 5]; 10],
        // General
        [
            [0, 0, 0, -4, 4],
            [0, 0, 0, -10, -6],
            [0, 0, 0, -18, -14],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
        ],
        // Advisor
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 4],
            [0, 0, 0, -2, 0],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
        ],
        // Elephant
        [
            [0, 0, 0, 0, 0],
            [0; 5],
            [-4, 0, 0, 0, 4],
            [0; 5],
            [0, 0, -4, 0, 0],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
        ],
        // Horse
        [
            [-6, -4, -2, -6, -12],
            [-4, 0, 2, -4, -12],
            [0, 2, 8, 6, 2],
            [2, 6, 8, 8, 10],
            [2, 12, 12, 16, 12],
            [6, 16, 14, 20, 14],
            [4, 12, 16, 16, 14],
            [6, 20, 18, 24, 16],
            [4, 10, 28, 18, 8],
            [2, 8, 6, 14, 0],
        ],
        // Chariot
        [
            [-4, 8, 4, 12, 8],
            [4, 4, 6, 14, 6],
            [2, 6, 4, 12, 10],
            [6, 10, 8, 14, 14],
            [8, 12, 12, 16, 16],
            [10, 16, 14, 18, 18],
            [10, 14, 12, 18, 18],
            [10, 12, 12, 18, 18],
            [14, 20, 18, 24, 26],
            [12, 14, 12, 18, 16],
        ],
        // Cannon
        [
            [0, 0, 2, 6, 6],
            [0, 2, 4, 6, 6],
            [2, 2, 0, 4, 14],
            [0, 0, 0, 2, 8],
            [-2, 0, 4, 2, 6],
            [0, 0, 0, 2, 8],
            [0, 2, 4, 4, 10],
            [2, 2, 0, -8, -6],
            [4, 2, 2, -4, -2],
            [8, 6, 0, -4, -6],
        ],
        // Soldier (the river lies between ranks 4 and 5)
        [
            [0; 5],
            [0; 5],
            [0; 5],
            [0, 0, -2, 0, 6],
            [0, 0, 2, 0, 10],
            [10, 18, 22, 35, 40],
            [20, 27, 32, 42, 44],
            [20, 30, 45, 55, 58],
            [10, 20, 30, 45, 50],
            [0, 3, 6, 10, 12],
        ],
    ],
    mobility: [
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
        [8, 8],
        [5, 7],
        [3, 3],
        [0, 0],
    ],
    mobility_base: [0, 0, 0, 0, 4, 8, 6, 0],
    missing_advisor: 10,
    missing_elephant: 8,
    open_file_chariot: 25,
    cannon_on_file: 20,
    central_cannon: 18,
    open_head_cannon: 50,
    attacker_weight: [0, 0, 0, 0, 14, 20, 12, 8],
    attack_scale: 6,
    connected_chariots: [12, 6],
    crowd: [[0, 0]; 8],
    palace_attack: [0; 8],
    palace_scale: 0,
    threat: [[0, 0]; 8],
    soldier_pair: [0, 0],
};

/// Janggi parameters. The material started from the traditional point
/// values (chariot 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2)
/// scaled to centipawns. Every group but the piece-square tables was then
/// fitted to the 5,000-node search scores of 1,313 self-play games
/// (`jiang datagen --variant janggi --nodes 5000 --seed 11`, 122,911
/// positions, every tenth game held out: validation loss 0.009787 to
/// 0.008660 with `jiang tune --lambda 0 --freeze pst,pst-lines`). The fit
/// switched on the threat terms (a piece attacked by a cheaper one).
pub const JANGGI: GameParams = GameParams {
    //            -   K        G           E           H           R           C           P
    material: [
        [0, 0],
        [0, 0],
        [114, 222],
        [200, 186],
        [250, 342],
        [716, 830],
        [342, 366],
        [92, 142],
    ],
    pst: [
        [[0; 5]; 10],
        // General
        [
            [0, 0, 0, -4, 26],
            [0, 0, 0, 4, 42],
            [0, 0, 0, -38, -34],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
        ],
        // Guard
        [
            [0, 0, 0, -2, 10],
            [0, 0, 0, 18, 12],
            [0, 0, 0, 2, -30],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
            [0; 5],
        ],
        // Elephant
        [
            [-38, 4, 2, 28, -36],
            [24, -32, -30, 26, 32],
            [-34, -30, -28, 18, 24],
            [14, 36, 20, 6, 4],
            [24, 36, 38, -24, -24],
            [0, 36, -26, 16, -24],
            [32, 36, 0, 10, -24],
            [30, -20, 4, -2, 12],
            [-36, -32, -30, -30, 34],
            [-34, -36, 30, 30, -32],
        ],
        // Horse
        [
            [22, -24, -20, 20, -34],
            [-22, -32, 22, 0, -30],
            [-10, -8, -2, -4, 4],
            [22, -2, 16, 6, 30],
            [32, 40, 44, 18, 0],
            [32, -24, 22, 46, 6],
            [32, 36, 44, -6, -12],
            [30, 38, 6, 2, 44],
            [14, 34, 38, 40, 8],
            [24, 28, 8, -16, 32],
        ],
        // Chariot
        [
            [-14, -28, -10, -14, -26],
            [-2, 8, 20, 32, -18],
            [6, 34, 24, 38, 38],
            [18, 36, 36, 12, -26],
            [20, 26, 38, 2, 0],
            [2, 38, 18, 20, -20],
            [36, 38, 22, 14, -10],
            [32, 28, 40, 50, 50],
            [6, 18, -12, 48, 24],
            [-26, 4, 6, 46, 46],
        ],
        // Cannon
        [
            [-18, -22, 34, 36, 36],
            [0, 12, 4, 38, -22],
            [10, 2, 18, 30, 36],
            [-32, -10, -30, -8, 32],
            [32, -14, -22, 34, 22],
            [-32, -32, -30, 34, -30],
            [-16, -32, -30, 4, 32],
            [-30, -30, -30, 38, -4],
            [-10, -30, -28, -26, -12],
            [-32, -32, -32, -18, -30],
        ],
        // Soldier
        [
            [0, -2, 0, 0, 2],
            [0; 5],
            [-2, 0, 0, 0, 0],
            [-16, -2, 2, 16, 18],
            [-26, 4, -2, 12, 18],
            [-6, 2, 14, 26, 50],
            [26, 4, 54, 26, 58],
            [-12, 57, 18, 72, 74],
            [-12, -7, -2, 82, 28],
            [-27, -22, -17, 62, 72],
        ],
    ],
    mobility: [
        [0, 0],
        [0, 0],
        [0, 0],
        [10, 8],
        [5, 12],
        [1, 11],
        [2, 10],
        [0, 0],
    ],
    mobility_base: [0, 0, 0, 3, 4, 8, 4, 0],
    missing_advisor: -6,
    missing_elephant: -12,
    open_file_chariot: 4,
    cannon_on_file: 18,
    central_cannon: 30,
    open_head_cannon: 42,
    attacker_weight: [0, 0, 0, 6, 36, 36, -40, 12],
    attack_scale: 6,
    connected_chariots: [10, 36],
    crowd: [
        [0, 0],
        [0, 0],
        [0, 0],
        [-12, -30],
        [-24, -8],
        [-28, -32],
        [-42, -46],
        [0, 0],
    ],
    palace_attack: [0, 0, 0, 4, 22, 10, -4, 52],
    palace_scale: 26,
    threat: [
        [0, 0],
        [0, 0],
        [42, 36],
        [38, 52],
        [70, 24],
        [64, 4],
        [34, 64],
        [0, 0],
    ],
    soldier_pair: [4, 10],
};
