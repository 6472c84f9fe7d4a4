//! The line of each row of a retained table, for messages that name a line: rows are stored
//! as a run of consecutive lines, broken only where a blank record, a skipped record or a
//! quoted line break intervenes.

/// Row -> 1-based line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lines {
    /// `(first row, its line)` of each run of consecutive lines.
    breaks: Vec<(u64, u64)>,
    rows: u64,
    last: u64,
}

impl Lines {
    /// Adds the next row, starting on `line`.
    pub fn push(&mut self, line: u64) {
        if self.rows == 0 || line != self.last + 1 {
            self.breaks.push((self.rows, line));
        }
        self.last = line;
        self.rows += 1;
    }

    /// Moves every line by `by`.
    pub fn shift(&mut self, by: u64) {
        for b in &mut self.breaks {
            b.1 += by;
        }
        if self.rows > 0 {
            self.last += by;
        }
    }

    /// Rows recorded.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The line of row `row`.
    pub fn line(&self, row: u64) -> u64 {
        let i = self.breaks.partition_point(|b| b.0 <= row);
        let (first, line) = self.breaks[i.max(1) - 1];
        line + (row - first)
    }

    /// Appends the rows of the next part of the same file.
    pub fn append(&mut self, other: &Lines) {
        for (k, &(row, line)) in other.breaks.iter().enumerate() {
            if k == 0 && self.rows > 0 && line == self.last + 1 {
                continue;
            }
            self.breaks.push((self.rows + row, line));
        }
        if other.rows > 0 {
            self.last = other.last;
        }
        self.rows += other.rows;
    }

    /// The runs, for storing.
    pub fn runs(&self) -> &[(u64, u64)] {
        &self.breaks
    }

    /// Rebuilds from stored runs and the row count.
    pub fn from_runs(runs: Vec<(u64, u64)>, rows: u64) -> Option<Lines> {
        if rows == 0 {
            return runs.is_empty().then(Lines::default);
        }
        let ok = runs.first().is_some_and(|r| r.0 == 0)
            && runs.windows(2).all(|w| w[0].0 < w[1].0)
            && runs.last().is_some_and(|r| r.0 < rows)
            && runs.iter().all(|r| r.1.checked_add(rows).is_some());
        let &(row, line) = runs.last()?;
        ok.then(|| Lines { last: line + (rows - 1 - row), breaks: runs, rows })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_rows_and_appended_parts() {
        let mut a = Lines::default();
        for l in [2, 3, 5, 6, 7, 9] {
            a.push(l);
        }
        assert_eq!((0..6).map(|r| a.line(r)).collect::<Vec<_>>(), vec![2, 3, 5, 6, 7, 9]);
        let mut b = Lines::default();
        for l in [10, 11, 14] {
            b.push(l);
        }
        a.append(&b);
        assert_eq!((0..9).map(|r| a.line(r)).collect::<Vec<_>>(), vec![2, 3, 5, 6, 7, 9, 10, 11, 14]);
        assert_eq!(a.runs().len(), 4);
        assert_eq!(Lines::from_runs(a.runs().to_vec(), 9), Some(a));
    }
}
