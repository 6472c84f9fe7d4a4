//! Small dense linear algebra for the utility metrics: covariance matrices and a symmetric
//! eigen-solver. The matrices are `m x m` with `m` the number of attributes, so a deterministic
//! cyclic Jacobi solver is enough (utility.md Sec 8.5, 11.4, 11.6: "Eigen and SVD routines MUST
//! be deterministic") and the crate needs no linear-algebra dependency.

use crate::numeric::neumaier;

/// A row-major matrix, or a list of columns.
pub type Matrix = Vec<Vec<f64>>;

/// Columns minus their means (Neumaier sums, row order).
pub fn centered(cols: &[Vec<f64>]) -> Matrix {
    cols.iter()
        .map(|c| {
            let mean = neumaier(c.iter().copied()) / c.len() as f64;
            c.iter().map(|v| v - mean).collect()
        })
        .collect()
}

/// `A'B / (n-1)` of centered column blocks.
pub fn cross(a: &[Vec<f64>], b: &[Vec<f64>]) -> Matrix {
    let n = a.first().map_or(0, Vec::len);
    a.iter().map(|u| b.iter().map(|v| neumaier(u.iter().zip(v).map(|(p, q)| p * q)) / (n - 1) as f64).collect()).collect()
}

/// Sample covariance matrix (`n - 1`) of the columns.
pub fn cov(cols: &[Vec<f64>]) -> Matrix {
    let c = centered(cols);
    cross(&c, &c)
}

/// `A B` of row-major matrices.
pub fn mul(a: &[Vec<f64>], b: &[Vec<f64>]) -> Matrix {
    a.iter().map(|row| (0..b[0].len()).map(|j| neumaier(row.iter().zip(b).map(|(x, r)| x * r[j]))).collect()).collect()
}

pub fn transpose(a: &[Vec<f64>]) -> Matrix {
    (0..a.first().map_or(0, Vec::len)).map(|j| a.iter().map(|r| r[j]).collect()).collect()
}

/// Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations: eigenvalues
/// descending (ties by index) and the eigenvectors as the columns of the second result.
/// Deterministic: a fixed sweep order and no randomness.
pub fn sym_eigen(mut a: Matrix) -> (Vec<f64>, Matrix) {
    let n = a.len();
    let mut v: Matrix = (0..n).map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    for _sweep in 0..100 {
        let off: f64 = (0..n).flat_map(|p| (p + 1..n).map(move |q| (p, q))).map(|(p, q)| a[p][q] * a[p][q]).sum();
        let diag: f64 = (0..n).map(|p| a[p][p] * a[p][p]).sum();
        if off <= 1e-36 * diag || off == 0.0 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                if a[p][q] == 0.0 {
                    continue;
                }
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = if theta.abs() > 1e150 { 0.5 / theta } else { theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt()) };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                let rotate = |x: f64, y: f64| (c * x - s * y, s * x + c * y);
                for k in 0..n {
                    (a[k][p], a[k][q]) = rotate(a[k][p], a[k][q]);
                    (v[k][p], v[k][q]) = rotate(v[k][p], v[k][q]);
                }
                let (head, tail) = a.split_at_mut(q);
                for (x, y) in head[p].iter_mut().zip(tail[0].iter_mut()) {
                    (*x, *y) = rotate(*x, *y);
                }
                (a[p][q], a[q][p]) = (0.0, 0.0);
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| a[j][j].total_cmp(&a[i][i]));
    let values = order.iter().map(|&k| a[k][k]).collect();
    let vectors = (0..n).map(|i| order.iter().map(|&k| v[i][k]).collect()).collect();
    (values, vectors)
}
