//! A symmetric eigen-solver for the PCA of spec synthetic.md Sec 7: the cyclic Jacobi method
//! (Golub and Van Loan, Matrix Computations, 4th ed., Sec 8.5) on a small `d x d` matrix (one
//! row and column per compared column). Written by hand: no linear-algebra dependency in the
//! page's wasm. SDNist's `metrics/pca.py:46-60` gets the same axes from sklearn's SVD of the
//! standardised table (`_pca.py`), whose right singular vectors are these eigenvectors.

/// The eigenvalues and unit eigenvectors of a symmetric matrix, by decreasing eigenvalue
/// (ties keep the order of the diagonal's columns).
#[derive(Debug, Clone, PartialEq)]
pub struct Eigen {
    /// The eigenvalues, largest first.
    pub values: Vec<f64>,
    /// `vectors[j]`: the unit eigenvector of `values[j]` (length `d`).
    pub vectors: Vec<Vec<f64>>,
}

/// Sweeps at most: Jacobi converges quadratically, a `d x d` matrix needs about 6-10.
const MAX_SWEEPS: usize = 100;

/// The eigen-decomposition of the symmetric `a` (`d` rows of `d`; only its values are read,
/// its symmetry is assumed). Each rotation zeroes one off-diagonal entry; sweeps run until
/// the off-diagonal mass is below `1e-30` of the matrix's squared Frobenius norm, or nothing
/// changes.
pub fn symmetric(a: &[Vec<f64>]) -> Eigen {
    let d = a.len();
    let mut m: Vec<Vec<f64>> = a.to_vec();
    let mut v: Vec<Vec<f64>> = (0..d).map(|i| (0..d).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    let norm: f64 = m.iter().flatten().map(|x| x * x).sum();
    for _ in 0..MAX_SWEEPS {
        let off: f64 = (0..d).flat_map(|i| (0..d).filter(move |&j| j != i).map(move |j| (i, j))).map(|(i, j)| m[i][j] * m[i][j]).sum();
        if off <= 1e-30 * norm || off == 0.0 {
            break;
        }
        for p in 0..d {
            for q in p + 1..d {
                let apq = m[p][q];
                if apq == 0.0 {
                    continue;
                }
                // The rotation (c, s) that zeroes m[p][q] (Golub-Van Loan Algorithm 8.5.1).
                let theta = (m[q][q] - m[p][p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for row in m.iter_mut() {
                    let (mkp, mkq) = (row[p], row[q]);
                    row[p] = c * mkp - s * mkq;
                    row[q] = s * mkp + c * mkq;
                }
                let (low, high) = m.split_at_mut(q);
                for (mpk, mqk) in low[p].iter_mut().zip(high[0].iter_mut()) {
                    let (x, y) = (*mpk, *mqk);
                    *mpk = c * x - s * y;
                    *mqk = s * x + c * y;
                }
                for row in v.iter_mut() {
                    let (vp, vq) = (row[p], row[q]);
                    row[p] = c * vp - s * vq;
                    row[q] = s * vp + c * vq;
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..d).collect();
    order.sort_by(|&i, &j| m[j][j].total_cmp(&m[i][i]));
    Eigen { values: order.iter().map(|&j| m[j][j]).collect(), vectors: order.iter().map(|&j| v.iter().map(|row| row[j]).collect()).collect() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn a_two_by_two_by_hand() {
        // [[2, 1], [1, 2]]: eigenvalues 3 and 1, vectors (1, 1)/sqrt2 and (1, -1)/sqrt2.
        let e = symmetric(&[vec![2.0, 1.0], vec![1.0, 2.0]]);
        assert!(close(e.values[0], 3.0) && close(e.values[1], 1.0));
        let h = std::f64::consts::FRAC_1_SQRT_2;
        assert!(close(e.vectors[0][0].abs(), h) && close(e.vectors[0][0], e.vectors[0][1]));
        assert!(close(e.vectors[1][0], -e.vectors[1][1]));
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn vectors_are_orthonormal_and_reconstruct_the_matrix() {
        let a = vec![vec![4.0, 1.0, -2.0, 0.5], vec![1.0, 3.0, 0.0, 1.0], vec![-2.0, 0.0, 5.0, -1.0], vec![0.5, 1.0, -1.0, 2.0]];
        let e = symmetric(&a);
        for i in 0..4 {
            for j in 0..4 {
                let dot: f64 = (0..4).map(|k| e.vectors[i][k] * e.vectors[j][k]).sum();
                assert!(close(dot, f64::from(u8::from(i == j))));
                let back: f64 = (0..4).map(|k| e.values[k] * e.vectors[k][i] * e.vectors[k][j]).sum();
                assert!((back - a[i][j]).abs() < 1e-10);
            }
        }
        assert!(e.values.windows(2).all(|w| w[0] >= w[1]));
        // The trace is kept.
        assert!((e.values.iter().sum::<f64>() - 14.0).abs() < 1e-10);
    }

    #[test]
    fn a_diagonal_or_zero_matrix_is_its_own_decomposition() {
        let e = symmetric(&[vec![1.0, 0.0], vec![0.0, 2.0]]);
        assert_eq!(e.values, [2.0, 1.0]);
        assert_eq!(e.vectors, [vec![0.0, 1.0], vec![1.0, 0.0]]);
        let z = symmetric(&[vec![0.0; 3], vec![0.0; 3], vec![0.0; 3]]);
        assert_eq!(z.values, [0.0; 3]);
        assert!(symmetric(&[]).values.is_empty());
    }
}
