//! Inference (spec peer-measures.md Sec 5.7; Anonymeter `inference_evaluator.py`): an
//! attacker knowing a target's auxiliary columns guesses its secret as the secret of the
//! nearest released row.

use crate::attack::columns::{AttackColumn, Side};
use crate::attack::draws::{Stream, StreamId};
use crate::attack::neighbors::Space;
use crate::table::dictionary::is_blank;

/// The counts of an inference attack.
#[derive(Debug, Clone, PartialEq)]
pub struct InfOutcome {
    /// Correct guesses on targets of `O`.
    pub k_att: u64,
    /// Correct guesses on targets of `C`.
    pub k_ctl: Option<u64>,
    /// Correct random guesses.
    pub k_base: u64,
    /// Whether a released range was read by its midpoint (`midpoint_used`).
    pub midpoint_used: bool,
    /// Per target of `O`: its row, the released row guessed from, and whether it was right.
    pub targets: Vec<(usize, usize, bool)>,
}

/// Whether the guess `g` (a cell of `P`) of the secret `y` (a cell of `O` or `C`) is right.
pub fn correct(secret: &AttackColumn, g: u32, y: u32, regression: bool, tolerance: f64) -> bool {
    match (is_blank(g), is_blank(y)) {
        (true, true) => true,
        (false, false) if regression => match (secret.number(g), secret.number(y)) {
            (Some(g), Some(y)) => (g - y).abs() / (g.abs() + 1e-12) <= tolerance,
            _ => false,
        },
        (false, false) => secret.compatible_values(y, g),
        _ => false,
    }
}

fn guesses(aux: &[&AttackColumn], side: Side, rows: &[usize], n_p: usize) -> Vec<usize> {
    let space = Space::new(aux, side, rows, n_p);
    crate::par::map(rows.to_vec(), |t| space.nearest(side, t, 1)[0])
}

/// Runs the attack on `n` targets of `O` (and of `C` when `n_c` is given).
#[allow(clippy::too_many_arguments)]
pub fn run(
    aux: &[&AttackColumn],
    secret: &AttackColumn,
    n_o: usize,
    n_p: usize,
    n_c: Option<usize>,
    n: usize,
    regression: bool,
    tolerance: f64,
    seed: u64,
) -> InfOutcome {
    let p = secret.codes(Side::Released);
    let score = |side: Side, rows: &[usize], guessed: &[usize]| -> Vec<bool> {
        let y = secret.codes(side);
        rows.iter().zip(guessed).map(|(&t, &g)| correct(secret, p[g], y[t], regression, tolerance)).collect()
    };
    let rows = Stream::new(seed, StreamId::InferenceOriginal).sample(n_o, n);
    let guessed = guesses(aux, Side::Original, &rows, n_p);
    let right = score(Side::Original, &rows, &guessed);
    let k_att = right.iter().filter(|&&r| r).count() as u64;
    let mut midpoint_used = regression && guessed.iter().any(|&g| secret.attr.is_range(p[g]));
    let k_ctl = n_c.map(|n_c| {
        let rows = Stream::new(seed, StreamId::InferenceControl).sample(n_c, n);
        let guessed = guesses(aux, Side::Control, &rows, n_p);
        midpoint_used |= regression && guessed.iter().any(|&g| secret.attr.is_range(p[g]));
        score(Side::Control, &rows, &guessed).iter().filter(|&&r| r).count() as u64
    });
    let mut base = Stream::new(seed, StreamId::InferenceBaseline);
    let targets = base.sample(n_o, n);
    let picks = base.sample(n_p, n);
    let k_base = score(Side::Original, &targets, &picks).iter().filter(|&&r| r).count() as u64;
    InfOutcome { k_att, k_ctl, k_base, midpoint_used, targets: rows.into_iter().zip(guessed).zip(right).map(|((t, g), r)| (t, g, r)).collect() }
}
