//! The handshake's modules import each other without a cycle.
//!
//! Reads `src/`, collects every module's references to other modules of this crate
//! (`use crate::…`, `crate::x::…` paths, `super::…`, paths into child modules, and names the
//! crate root re-exports, resolved to the module defining them) and fails on a cycle, printing
//! it with the reference behind each edge. The crate root is left out: it declares every
//! module and re-exports the public ones. Run it alone with
//! `cargo test -p burrow-handshake --test module_graph -- --nocapture` to see the graph.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module path below the crate root: `["tls12"]`, `["tls13", "steps"]`; the root is `[]`.
type ModPath = Vec<String>;

/// Edges: from module -> to module -> one reference that makes the edge (for the report).
type Graph = BTreeMap<ModPath, BTreeMap<ModPath, String>>;

#[test]
fn no_import_cycle_among_handshake_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = read_tree(&src);
    assert!(
        files.len() > 5,
        "read {} module files from src/",
        files.len()
    );
    let graph = graph(&files);
    println!("{}", render(&graph));
    let cycles = cycles(&graph);
    assert!(
        cycles.is_empty(),
        "import cycles among crates/handshake/src modules:\n{}",
        cycles.join("\n")
    );
}

/// The check itself: a cycle of three made of each kind of reference is found and printed; a
/// chain is not.
#[test]
fn the_check_finds_cycles() {
    let files: BTreeMap<ModPath, String> = [
        (vec![], "mod a;\nmod b;\nmod c;\npub use c::Thing;\n"),
        (
            vec!["a".into()],
            "// use crate::c; (a comment)\nuse crate::{x, b::{self, B}};\nconst S: &str = \"crate::c::X\";\n",
        ),
        (vec!["b".into()], "fn f() -> crate::Thing { todo!() }\n"),
        (
            vec!["c".into()],
            "mod d;\nfn g(_: d::D) {}\n#[cfg(test)]\n#[allow(clippy::all)]\nmod tests { use crate::b::B; }\n",
        ),
        (vec!["c".into(), "d".into()], "use super::super::a::A;\n"),
    ]
    .into_iter()
    .map(|(p, s)| (p, s.to_string()))
    .collect();
    let g = graph(&files);
    let m = |s: &str| s.split("::").map(str::to_string).collect::<ModPath>();
    let targets = |from: &str| g[&m(from)].keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        targets("a"),
        vec![m("b")],
        "comments and strings are not references"
    );
    assert_eq!(
        targets("b"),
        vec![m("c")],
        "a root re-export resolves to its module"
    );
    assert_eq!(targets("c"), vec![m("c::d")], "test modules are left out");
    assert_eq!(targets("c::d"), vec![m("a")]);
    let found = cycles(&g);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("a -> b -> c -> c::d -> a"),
        "{}",
        found[0]
    );
    let mut chain = g.clone();
    chain.get_mut(&m("c::d")).unwrap().clear();
    assert!(cycles(&chain).is_empty());
}

/// Every `.rs` file under `dir`, by module path.
fn read_tree(dir: &Path) -> BTreeMap<ModPath, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![(dir.to_path_buf(), Vec::<String>::new())];
    while let Some((d, prefix)) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            if path.is_dir() {
                let mut p = prefix.clone();
                p.push(name);
                stack.push((path, p));
                continue;
            }
            let Some(stem) = name.strip_suffix(".rs") else {
                continue;
            };
            let mut module = prefix.clone();
            if !(stem == "mod" || (prefix.is_empty() && stem == "lib")) {
                module.push(stem.to_string());
            }
            out.insert(module, std::fs::read_to_string(&path).unwrap());
        }
    }
    out
}

/// The module graph, the root's re-exports resolved and the root itself left out.
fn graph(files: &BTreeMap<ModPath, String>) -> Graph {
    let code: BTreeMap<&ModPath, String> = files.iter().map(|(m, s)| (m, code_only(s))).collect();
    let modules: BTreeSet<&ModPath> = files.keys().collect();
    // Names the root re-exports from its own modules (`pub use conn::{Config, …}`).
    let mut reexports: BTreeMap<String, ModPath> = BTreeMap::new();
    if let Some(root) = code.get(&Vec::new()) {
        for path in use_paths(root) {
            let module = longest_module(&modules, &path);
            if !module.is_empty() && path.len() > module.len() {
                reexports.insert(path.last().unwrap().clone(), module);
            }
        }
    }
    let mut g = Graph::new();
    for (&from, text) in &code {
        if from.is_empty() {
            continue;
        }
        let edges = g.entry(from.clone()).or_default();
        let children: BTreeSet<String> = declared_children(text);
        for (path, shown) in references(text, from, &children) {
            let mut to = longest_module(&modules, &path);
            if to.is_empty() {
                match path.first().and_then(|n| reexports.get(n)) {
                    Some(m) => to = m.clone(),
                    None => continue,
                }
            }
            if &to != from {
                edges.entry(to).or_insert(shown);
            }
        }
    }
    g
}

/// Source with comments, string and char literals and a trailing `#[cfg(test)] mod` removed.
fn code_only(s: &str) -> String {
    let s = match test_module_start(s) {
        Some(at) => &s[..at],
        None => s,
    };
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &s[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if let Some(hashes) = raw_string_start(rest) {
            let close = format!("\"{}", "#".repeat(hashes));
            let body = hashes + 2 + usize::from(rest.starts_with('b'));
            i += body
                + rest[body..]
                    .find(&close)
                    .map_or(rest.len() - body, |e| e + close.len());
            out.push_str("\"\"");
        } else if rest.starts_with('"') {
            let mut j = 1;
            while j < rest.len() && rest.as_bytes()[j] != b'"' {
                j += if rest.as_bytes()[j] == b'\\' { 2 } else { 1 };
            }
            i += (j + 1).min(rest.len());
            out.push_str("\"\"");
        } else if let Some(n) = char_literal_len(rest) {
            i += n;
            out.push_str("' '");
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Where a `#[cfg(test)]` module starts (its other attributes may come between).
fn test_module_start(s: &str) -> Option<usize> {
    s.match_indices("#[cfg(test)]")
        .map(|(at, _)| at)
        .find(|&at| {
            let mut rest = s[at + "#[cfg(test)]".len()..].trim_start();
            while rest.starts_with("#[") {
                let mut depth = 0;
                let Some(end) = rest.char_indices().find_map(|(i, c)| {
                    match c {
                        '[' => depth += 1,
                        ']' => {
                            depth -= 1;
                            return (depth == 0).then_some(i);
                        }
                        _ => {}
                    }
                    None
                }) else {
                    return false;
                };
                rest = rest[end + 1..].trim_start();
            }
            rest.starts_with("mod ")
        })
}

/// `r"`, `r#"`, `br##"`…: the number of hashes of a raw string starting here.
fn raw_string_start(s: &str) -> Option<usize> {
    let s = s.strip_prefix('b').unwrap_or(s).strip_prefix('r')?;
    let hashes = s.len() - s.trim_start_matches('#').len();
    s[hashes..].starts_with('"').then_some(hashes)
}

/// The length of a char literal starting here (`'a'`, `'\n'`, `'"'`), not a lifetime.
fn char_literal_len(s: &str) -> Option<usize> {
    let rest = s.strip_prefix('\'')?;
    if let Some(esc) = rest.strip_prefix('\\') {
        return esc.find('\'').map(|e| e + 3);
    }
    let c = rest.chars().next()?;
    rest[c.len_utf8()..]
        .starts_with('\'')
        .then_some(2 + c.len_utf8())
}

/// `mod x;` declarations: the module's children.
fn declared_children(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in code.lines() {
        let t = line.trim();
        let t = t
            .strip_prefix("pub(crate) ")
            .or(t.strip_prefix("pub "))
            .unwrap_or(t);
        if let Some(name) = t.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
            out.insert(name.trim().to_string());
        }
    }
    out
}

/// The paths of every `use` item, use trees expanded (`use a::{b, c::d}` -> `a::b`, `a::c::d`).
fn use_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("use ") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(end) = code[at..].find(';') else {
            continue;
        };
        // `a as b` becomes `a@b`, then the remaining whitespace goes.
        let words: Vec<&str> = code[at + 4..at + end].split_whitespace().collect();
        let tree: String = words.join(" ").replace(" as ", "@").replace(' ', "");
        expand(&tree, &mut Vec::new(), &mut out);
    }
    out
}

/// Expands one use tree below `prefix`.
fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let (head, group) = match tree.find('{') {
        Some(open) if tree.ends_with('}') => (&tree[..open], Some(&tree[open + 1..tree.len() - 1])),
        _ => (tree, None),
    };
    let depth = prefix.len();
    for seg in head.split("::").filter(|s| !s.is_empty()) {
        let seg = seg.split('@').next().unwrap_or(seg);
        if seg != "self" && seg != "*" {
            prefix.push(seg.to_string());
        }
    }
    match group {
        Some(g) => {
            for part in split_top_level(g) {
                expand(part, prefix, out);
            }
        }
        None => out.push(prefix.clone()),
    }
    prefix.truncate(depth);
}

/// Splits a use group's contents at its top-level commas.
fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// Every reference `from` makes, as a crate-relative path, with the text shown for it.
fn references(
    code: &str,
    from: &ModPath,
    children: &BTreeSet<String>,
) -> Vec<(Vec<String>, String)> {
    let mut paths: Vec<Vec<String>> = use_paths(code);
    // Paths in the code outside use items: crate::a::b, super::a, child::x.
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let starts_word = i == 0 || {
            let p = bytes[i - 1];
            !(p.is_ascii_alphanumeric() || p == b'_' || p == b':')
        };
        if !starts_word || !(bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < code.len()
            && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_' || code[j..].starts_with("::"))
        {
            j += if code[j..].starts_with("::") { 2 } else { 1 };
        }
        let path: Vec<String> = code[i..j]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if path.len() > 1 {
            paths.push(path);
        }
        i = j.max(i + 1);
    }
    let mut out = Vec::new();
    for p in paths {
        let shown = p.join("::");
        let Some(first) = p.first() else { continue };
        let resolved = if first == "crate" {
            p[1..].to_vec()
        } else if first == "super" || first == "self" {
            let mut base = from.clone();
            let mut rest = &p[..];
            while let Some(seg) = rest.first() {
                match seg.as_str() {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            base
        } else if children.contains(first) {
            let mut base = from.clone();
            base.extend(p.iter().cloned());
            base
        } else {
            continue;
        };
        out.push((resolved, shown));
    }
    out
}

/// The longest prefix of `path` that is a module (the root `[]` if none is).
fn longest_module(modules: &BTreeSet<&ModPath>, path: &[String]) -> ModPath {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| modules.contains(p))
        .unwrap_or_default()
}

fn name(m: &ModPath) -> String {
    m.join("::")
}

/// One line per module: what it imports.
fn render(g: &Graph) -> String {
    g.iter()
        .map(|(from, tos)| {
            let tos: Vec<String> = tos.keys().map(name).collect();
            format!("{} -> {}", name(from), tos.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One cycle per strongly connected component of more than one module, each edge with the
/// reference that makes it.
fn cycles(g: &Graph) -> Vec<String> {
    let nodes: Vec<&ModPath> = g.keys().collect();
    let reach = |from: &ModPath| -> BTreeSet<ModPath> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for to in g.get(&n).into_iter().flat_map(|e| e.keys()) {
                if seen.insert(to.clone()) {
                    stack.push(to.clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&ModPath, BTreeSet<ModPath>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in &nodes {
        if done.contains(*n) || !reachable[n].contains(*n) {
            continue;
        }
        let component: BTreeSet<ModPath> = reachable[n]
            .iter()
            .filter(|m| reachable.get(m).is_some_and(|r| r.contains(*n)))
            .cloned()
            .collect();
        done.extend(component.iter().cloned());
        out.push(shortest_cycle(g, n, &component));
    }
    out
}

/// The shortest cycle through `start` inside `component`, printed with its references.
fn shortest_cycle(g: &Graph, start: &ModPath, component: &BTreeSet<ModPath>) -> String {
    let mut parent: BTreeMap<ModPath, ModPath> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.clone()]);
    let mut last = None;
    while let Some(n) = queue.pop_front() {
        for to in g.get(&n).into_iter().flat_map(|e| e.keys()) {
            if to == start {
                last = Some(n.clone());
                break;
            }
            if component.contains(to) && !parent.contains_key(to) {
                parent.insert(to.clone(), n.clone());
                queue.push_back(to.clone());
            }
        }
        if last.is_some() {
            break;
        }
    }
    let mut back = Vec::new();
    let mut at = last.unwrap();
    while &at != start {
        back.push(at.clone());
        at = parent[&at].clone();
    }
    back.reverse();
    let path: Vec<ModPath> = [vec![start.clone()], back, vec![start.clone()]].concat();
    let names: Vec<String> = path.iter().map(name).collect();
    let because: Vec<String> = path
        .windows(2)
        .map(|w| format!("  {} -> {}: {}", name(&w[0]), name(&w[1]), g[&w[0]][&w[1]]))
        .collect();
    let members: Vec<String> = component.iter().map(name).collect();
    format!(
        "a cycle among {} modules ({}); the shortest through {}: {}\n{}",
        component.len(),
        members.join(", "),
        name(start),
        names.join(" -> "),
        because.join("\n")
    )
}
