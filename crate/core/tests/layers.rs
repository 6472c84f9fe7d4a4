//! The core's structure (docs/architecture.md), checked from its imports. Layers, bottom to
//! top: base helpers -> ingest -> table -> metric families -> config -> audit and report -> the
//! facade in lib.rs. No module imports one above it (the metric families never see the settings
//! or the report), and no files or folders import each other in a loop.
//!
//! The import graph is read from the source: every path through `crate::`, `super::`, `self::`
//! or a child module, `use` groups included, is followed to the file that defines the item, a
//! name re-exported by `lib.rs` or a folder's `mod.rs` is followed to where it is defined (so
//! `crate::Report` is an import of `report.rs`). Test modules (`#[cfg(test)]`) are left out:
//! a test may use anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layer of each top-level module of `src/`.
fn layer(module: &str) -> Option<u8> {
    Some(match module {
        "error" | "figures" | "hash" | "interval" | "json" | "metric" | "numeric" | "par" | "progress" | "radix" | "rng" | "special" => 0,
        "ingest" => 1,
        "table" => 2,
        "advice" | "attack" | "attribute" | "balance" | "hipaa" | "identity" | "protect" | "synthetic" | "utility" | "verdict" => 3,
        "config" => 4,
        "audit" | "class_part" | "extract" | "release" | "report" | "scope" | "shareable" | "sides" | "sample" => 5,
        // contract.rs (a test writing the TypeScript contract) sees everything, as the facade does.
        "lib" | "contract" => 6,
        _ => return None,
    })
}

/// A module's path from the crate root: `["table", "column"]`; the root is `[]`.
type Module = Vec<String>;

struct Source {
    /// Each module and its text without comments and test modules.
    text: BTreeMap<Module, String>,
    /// Each module's re-exports: a name and the absolute path it stands for.
    reexports: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out)
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p)
        }
    }
}

fn module_of(rel: &Path) -> Module {
    let mut m: Module = rel.with_extension("").components().map(|c| c.as_os_str().to_str().unwrap().to_string()).collect();
    if matches!(m.last().map(String::as_str), Some("mod" | "lib")) {
        m.pop();
    }
    m
}

/// The code of a file: comments dropped, and each item under `#[cfg(test)]` (to its `;` or
/// its closing brace).
fn code(text: &str) -> String {
    let mut text: String = text.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n");
    while let Some(at) = text.find("#[cfg(test)]") {
        let b = text.as_bytes();
        let mut i = at + "#[cfg(test)]".len();
        while i < b.len() && b[i] != b';' && b[i] != b'{' {
            i += 1
        }
        if i < b.len() && b[i] == b'{' {
            let mut depth = 0;
            while i < b.len() {
                depth += match b[i] {
                    b'{' => 1,
                    b'}' => -1,
                    _ => 0,
                };
                if depth == 0 {
                    break;
                }
                i += 1
            }
        }
        text.replace_range(at..(i + 1).min(text.len()), "");
    }
    text
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A written path and the alias it is used under (`use a::b as c`).
type Written = (Vec<String>, Option<String>);

/// The paths written from `at` on: `a::b::{c, d::e as f}` gives `a::b::c` and `a::b::d::e`
/// (with the alias `f`), and the end of what was read.
fn paths_at(text: &str, at: usize) -> (Vec<Written>, usize) {
    let b = text.as_bytes();
    let mut i = at;
    let mut prefix = Vec::new();
    loop {
        while i < b.len() && b[i] == b' ' {
            i += 1
        }
        if i < b.len() && b[i] == b'{' {
            let mut out = Vec::new();
            i += 1;
            loop {
                while i < b.len() && (b[i] as char).is_whitespace() || i < b.len() && b[i] == b',' {
                    i += 1
                }
                if i >= b.len() || b[i] == b'}' {
                    return (out, i + 1);
                }
                let (inner, end) = paths_at(text, i);
                out.extend(inner.into_iter().map(|(p, alias)| ([prefix.clone(), p].concat(), alias)));
                i = end;
            }
        }
        let start = i;
        while i < b.len() && is_ident(b[i] as char) {
            i += 1
        }
        let seg = &text[start..i];
        if seg.is_empty() {
            return (vec![(prefix, None)], i);
        }
        prefix.push(seg.to_string());
        if text[i..].starts_with("::") {
            i += 2;
            continue;
        }
        let after = text[i..].trim_start();
        if let Some(r) = after.strip_prefix("as ") {
            let alias: String = r.trim_start().chars().take_while(|c| is_ident(*c)).collect();
            let end = text.len() - r.trim_start().len() + alias.len();
            return (vec![(prefix, Some(alias))], end);
        }
        return (vec![(prefix, None)], i);
    }
}

/// A written path made absolute from the module `m`: `crate::`, `super::`, `self::` or a
/// child module of `m`; `None` for anything else (std, a crate, a local item).
fn absolute(m: &Module, path: &[String], children: &BTreeSet<String>) -> Option<Vec<String>> {
    let mut base = m.clone();
    let mut rest = path;
    match rest.first()?.as_str() {
        "crate" => {
            base.clear();
            rest = &rest[1..]
        }
        "self" => rest = &rest[1..],
        "super" => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        first if children.contains(first) => {}
        _ => return None,
    }
    Some([base, rest.to_vec()].concat())
}

impl Source {
    fn read() -> Source {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut all = Vec::new();
        files(&src, &mut all);
        let text: BTreeMap<Module, String> =
            all.iter().map(|p| (module_of(p.strip_prefix(&src).unwrap()), code(&std::fs::read_to_string(p).unwrap()))).collect();
        let mut s = Source { text, reexports: BTreeMap::new() };
        for m in s.text.keys() {
            let children = s.children(m);
            let text = &s.text[m];
            let mut names = BTreeMap::new();
            for (at, _) in text.match_indices("pub use ").chain(text.match_indices("pub(crate) use ")) {
                let start = at + text[at..].find("use ").unwrap() + 4;
                for (path, alias) in paths_at(text, start).0 {
                    let Some(abs) = absolute(m, &path, &children) else { continue };
                    let name = alias.unwrap_or_else(|| path.last().unwrap().clone());
                    if name != "self" {
                        names.insert(name, abs);
                    }
                }
            }
            s.reexports.insert(m.clone(), names);
        }
        s
    }

    fn children(&self, m: &Module) -> BTreeSet<String> {
        self.text.keys().filter(|c| c.len() == m.len() + 1 && c.starts_with(m)).map(|c| c.last().unwrap().clone()).collect()
    }

    /// The module that defines the item at `path`: the deepest module on it, through re-exports.
    fn defining(&self, path: &[String], depth: u8) -> Module {
        let mut m: Module = Vec::new();
        for (i, seg) in path.iter().enumerate() {
            let mut next = m.clone();
            next.push(seg.clone());
            if self.text.contains_key(&next) {
                m = next;
                continue;
            }
            if let Some(target) = self.reexports.get(&m).and_then(|r| r.get(seg))
                && depth < 8
            {
                return self.defining(&[target.clone(), path[i + 1..].to_vec()].concat(), depth + 1);
            }
            break;
        }
        m
    }

    /// Every module each module imports (itself left out).
    fn graph(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut graph = BTreeMap::new();
        for (m, text) in &self.text {
            let children = self.children(m);
            let mut to = BTreeSet::new();
            let starts = ["crate::", "super::", "self::"].into_iter().map(String::from).chain(children.iter().map(|c| format!("{c}::")));
            for start in starts {
                for (at, _) in text.match_indices(&start) {
                    if text[..at].chars().next_back().is_some_and(|c| is_ident(c) || c == ':') {
                        continue;
                    }
                    for (path, _) in paths_at(text, at).0 {
                        if let Some(abs) = absolute(m, &path, &children) {
                            to.insert(self.defining(&abs, 0));
                        }
                    }
                }
            }
            to.remove(m);
            graph.insert(m.clone(), to);
        }
        graph
    }
}

fn show(m: &Module) -> String {
    if m.is_empty() { "lib".into() } else { m.join("::") }
}

/// The loops of the graph: each set of nodes that reach each other (Tarjan's strongly
/// connected components of more than one node), sorted.
fn loops<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct Walk<'g, N> {
        graph: &'g BTreeMap<N, BTreeSet<N>>,
        index: BTreeMap<N, (usize, usize)>,
        stack: Vec<N>,
        out: Vec<Vec<N>>,
    }
    impl<N: Ord + Clone> Walk<'_, N> {
        fn visit(&mut self, n: &N) -> usize {
            let at = self.index.len();
            self.index.insert(n.clone(), (at, at));
            self.stack.push(n.clone());
            let mut low = at;
            for next in self.graph.get(n).into_iter().flatten() {
                match self.index.get(next) {
                    None => low = low.min(self.visit(next)),
                    Some(&(i, _)) if self.stack.contains(next) => low = low.min(i),
                    Some(_) => {}
                }
            }
            self.index.insert(n.clone(), (at, low));
            if low == at {
                let from = self.stack.iter().position(|s| s == n).unwrap();
                let mut component = self.stack.split_off(from);
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
            low
        }
    }
    let mut walk = Walk { graph, index: BTreeMap::new(), stack: Vec::new(), out: Vec::new() };
    for n in graph.keys() {
        if !walk.index.contains_key(n) {
            walk.visit(n);
        }
    }
    walk.out.sort();
    walk.out
}

#[test]
fn no_module_imports_one_above_it() {
    let source = Source::read();
    let mut wrong = Vec::new();
    for (m, to) in source.graph() {
        let top = |m: &Module| m.first().cloned().unwrap_or_else(|| "lib".into());
        let Some(own) = layer(&top(&m)) else { panic!("{} is in no layer: add it to layer()", show(&m)) };
        for t in &to {
            if layer(&top(t)).is_some_and(|theirs| theirs > own) {
                wrong.push(format!("{} imports {}", show(&m), show(t)));
            }
        }
    }
    assert!(wrong.is_empty(), "imports that go up a layer:\n{}", wrong.join("\n"));
    assert!(source.text.len() > 50, "the source files were found");
}

#[test]
fn no_files_import_each_other_in_a_loop() {
    // A folder's `mod.rs` is its front door: it declares and re-exports its files, and they use
    // the types it holds for all of them. Edges between it and its own files are left out here;
    // the loops among those files are the folder test's.
    let mut graph = Source::read().graph();
    assert!(graph.values().map(BTreeSet::len).sum::<usize>() > 300, "the imports were found");
    for (m, to) in graph.iter_mut() {
        to.retain(|t| !t.starts_with(m) && !m.starts_with(t));
    }
    let found: Vec<String> = loops(&graph).iter().map(|l| l.iter().map(show).collect::<Vec<_>>().join(", ")).collect();
    assert!(found.is_empty(), "files that import each other in a loop:\n{}", found.join("\n"));
}

#[test]
fn no_folders_import_each_other_in_a_loop() {
    // At each folder, its files and subfolders are the nodes: an import from anywhere inside
    // one to anywhere inside another is an edge between them.
    let graph = Source::read().graph();
    let mut found = Vec::new();
    let folders: BTreeSet<Module> = graph.keys().flat_map(|m| (0..m.len()).map(|n| m[..n].to_vec())).collect();
    for folder in folders {
        let within = |m: &Module| (m.len() > folder.len() && m.starts_with(&folder)).then(|| m[folder.len()].clone());
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (m, to) in &graph {
            let Some(from) = within(m) else { continue };
            for t in to.iter().filter_map(within).filter(|t| *t != from) {
                g.entry(from.clone()).or_default().insert(t);
            }
        }
        found.extend(loops(&g).iter().map(|l| format!("in {}/: {}", show(&folder), l.join(", "))));
    }
    assert!(found.is_empty(), "folders and files that import each other in a loop:\n{}", found.join("\n"));
}

#[test]
fn the_reader_of_imports_follows_groups_re_exports_and_super() {
    let (paths, _) = paths_at("crate::a::{b, c::{D, E as F}, self};", 0);
    let got: Vec<String> = paths.iter().map(|(p, a)| format!("{}{}", p.join("::"), a.as_ref().map(|a| format!(" as {a}")).unwrap_or_default())).collect();
    assert_eq!(got, ["crate::a::b", "crate::a::c::D", "crate::a::c::E as F", "crate::a::self"]);
    let m: Module = vec!["table".into(), "column".into()];
    assert_eq!(absolute(&m, &["super".into(), "super".into(), "report".into()], &BTreeSet::new()), Some(vec!["report".to_string()]));
    let source = Source::read();
    assert_eq!(source.defining(&["Report".into()], 0), vec!["report".to_string()], "a name lib.rs re-exports is followed");
    let mut planted = BTreeMap::new();
    planted.insert(1, BTreeSet::from([2]));
    planted.insert(2, BTreeSet::from([1]));
    planted.insert(3, BTreeSet::from([1]));
    assert_eq!(loops(&planted), [vec![1, 2]]);
}
