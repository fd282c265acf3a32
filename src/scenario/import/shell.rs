//! The part of a launch script that runs: `if`/`elif`/`else`/`fi` and `case … esac` followed
//! where the script itself decides the condition (a variable it sets, or leaves unset, tested
//! with `=`, `==`, `!=`, `-z` or `-n`; a `case` on such a variable), the branches not taken
//! blanked line for line so that every flag keeps its line. A branch the text cannot decide
//! (a variable it never sets compared with a word, a command's exit status, a loop) is refused
//! when it sets a flag or a variable, naming its line: the tool does not guess which way a
//! launch goes.

use super::ImportError;
use std::collections::HashMap;

/// One open `if` or `case`: its first line, whether a branch has been taken, whether the
/// current branch runs, and whether the text decided it.
struct Block {
    start: usize,
    taken: bool,
    active: bool,
    decided: bool,
    /// `case`: the word the patterns are matched against (`None` when undecided).
    subject: Option<Option<String>>,
}

/// `NAME=value` at the start of a command (after `export`), its value's first word unquoted,
/// and `: "${NAME:=value}"`, which sets `NAME` if unset.
pub fn assignment(line: &str) -> Option<(String, String, bool)> {
    let line = line.trim().trim_start_matches("export ").trim();
    if let Some(rest) = line.strip_prefix(':') {
        let inner = rest.trim().trim_matches('"');
        let inner = inner.strip_prefix("${")?.strip_suffix('}')?;
        let (name, value) = inner.split_once(":=")?;
        return Some((name.to_string(), unquote(value), true));
    }
    let (name, value) = line.split_once('=')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let value = value.split_whitespace().next().unwrap_or("");
    let value = unquote(value);
    let value = match value
        .strip_prefix("${")
        .and_then(|v| v.strip_suffix('}'))
        .and_then(|v| v.split_once(":-").or_else(|| v.split_once(":=")))
    {
        Some((_, default)) => unquote(default),
        None => value,
    };
    Some((name.to_string(), value, false))
}

/// A word without its surrounding quotes.
pub fn unquote(word: &str) -> String {
    word.trim_matches(|c| c == '"' || c == '\'').to_string()
}

/// The value a test's operand has: a literal, or a variable's value (`Some("")` when the text
/// never sets it but a default is empty is not known: `None` then).
fn operand(word: &str, vars: &HashMap<String, String>) -> Option<Option<String>> {
    let w = unquote(word);
    match w.strip_prefix('$') {
        Some(name) => {
            let name = name.trim_start_matches('{').trim_end_matches('}');
            let (name, default) = match name.split_once(":-") {
                Some((n, d)) => (n, Some(unquote(d))),
                None => (name, None),
            };
            Some(vars.get(name).cloned().or(default))
        }
        None => Some(Some(w)),
    }
}

/// `[ … ]` or `[[ … ]]` tests after `if`/`elif`, joined by `||` and `&&` (left to right, as
/// bash takes them): `Some(true/false)` when the text decides every test.
fn condition(text: &str, vars: &HashMap<String, String>) -> Option<bool> {
    let text = text
        .trim()
        .trim_end_matches("then")
        .trim()
        .trim_end_matches(';')
        .trim();
    let mut value = None;
    let mut rest = text;
    let mut joiner = "";
    loop {
        let (part, next, after) = match (rest.find(" || "), rest.find(" && ")) {
            (Some(o), Some(a)) if a < o => (&rest[..a], "&&", &rest[a + 4..]),
            (Some(o), _) => (&rest[..o], "||", &rest[o + 4..]),
            (None, Some(a)) => (&rest[..a], "&&", &rest[a + 4..]),
            (None, None) => (rest, "", ""),
        };
        let t = test(part, vars)?;
        value = Some(match (value, joiner) {
            (None, _) => t,
            (Some(v), "||") => v || t,
            (Some(v), _) => v && t,
        });
        if next.is_empty() {
            return value;
        }
        joiner = next;
        rest = after;
    }
}

/// One `[ … ]` or `[[ … ]]` test.
fn test(text: &str, vars: &HashMap<String, String>) -> Option<bool> {
    let inner = text.trim();
    let inner = inner
        .strip_prefix("[[")
        .and_then(|s| s.strip_suffix("]]"))
        .or_else(|| inner.strip_prefix('[').and_then(|s| s.strip_suffix(']')))?;
    let words: Vec<&str> = inner.split_whitespace().collect();
    match words.as_slice() {
        ["-z", x] => Some(operand(x, vars)?.is_none_or(|v| v.is_empty())),
        ["-n", x] => Some(operand(x, vars)?.is_some_and(|v| !v.is_empty())),
        [a, op @ ("=" | "==" | "!="), b] => {
            let (a, b) = (operand(a, vars)??, operand(b, vars)??);
            Some((a == b) == (*op != "!="))
        }
        _ => None,
    }
}

/// Whether a `case` pattern (`a|b)`, `*)`) matches `word`.
fn pattern_matches(pattern: &str, word: &str) -> bool {
    pattern
        .trim()
        .trim_start_matches('(')
        .split('|')
        .map(|p| unquote(p.trim()))
        .any(|p| p == "*" || p == word)
}

/// Whether a line sets something the importer reads: a flag or a variable.
fn sets_something(line: &str) -> bool {
    line.split_whitespace().any(|w| {
        // A flag is `--` and a letter; `echo "---"` sets nothing.
        let w = w.trim_matches('"').as_bytes();
        w.len() > 2 && w.starts_with(b"--") && w[2].is_ascii_alphabetic()
    }) || assignment(line).is_some()
}

/// `text` with the branches that do not run blanked (their lines kept, empty), or the line of
/// a setting inside a branch the text does not decide.
pub fn active_text(text: &str) -> Result<String, ImportError> {
    let mut vars: HashMap<String, String> = HashMap::new();
    let mut stack: Vec<Block> = Vec::new();
    let mut loops: Vec<usize> = Vec::new();
    let mut out = String::with_capacity(text.len());
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.split(" #").next().unwrap_or(raw).trim();
        let first = line.split_whitespace().next().unwrap_or("");
        let runs = stack.iter().all(|b| b.active);
        let mut keep = false;
        match first {
            // `if …; then …; fi` on one line: followed only if it sets nothing.
            "if" if line.ends_with("fi") => {
                if sets_something(line.trim_end_matches("fi")) {
                    return Err(ImportError::Branch {
                        line: line_no,
                        opened: line_no,
                    });
                }
            }
            "if" => {
                let c = condition(&line[2..], &vars);
                stack.push(Block {
                    start: line_no,
                    taken: c == Some(true),
                    active: c == Some(true),
                    decided: c.is_some(),
                    subject: None,
                });
            }
            "elif" => {
                if let Some(b) = stack.last_mut() {
                    let c = condition(&line[4..], &vars);
                    b.decided &= c.is_some();
                    b.active = !b.taken && c == Some(true);
                    b.taken |= b.active;
                }
            }
            "else" => {
                if let Some(b) = stack.last_mut() {
                    b.active = !b.taken;
                    b.taken = true;
                }
            }
            "fi" | "esac" => {
                stack.pop();
            }
            "case" => {
                let word = line
                    .trim_start_matches("case")
                    .trim()
                    .trim_end_matches("in")
                    .trim();
                let subject = operand(word, &vars).flatten();
                stack.push(Block {
                    start: line_no,
                    taken: false,
                    active: false,
                    decided: subject.is_some(),
                    subject: Some(subject),
                });
            }
            "for" | "while" | "until" => loops.push(line_no),
            "done" => {
                loops.pop();
            }
            _ => keep = command(line, line_no, runs, &mut stack, &loops, &mut vars)?,
        }
        if keep || (runs && stack.is_empty() && loops.is_empty()) {
            out.push_str(raw);
        }
        out.push('\n');
    }
    Ok(out)
}

/// A line that is not a keyword of a block: a `case` arm's pattern, a setting (refused inside
/// an undecided branch or a loop) or a command; whether it runs. Assignments that run are
/// remembered for the conditions after them.
fn command(
    line: &str,
    line_no: usize,
    runs: bool,
    stack: &mut [Block],
    loops: &[usize],
    vars: &mut HashMap<String, String>,
) -> Result<bool, ImportError> {
    // A `case` arm opens with `pattern)`; `;;` closes it.
    let arm = stack
        .last()
        .filter(|b| b.subject.is_some())
        .and_then(|_| line.split_once(')'))
        .filter(|(p, _)| !p.contains(' ') || p.contains('|'));
    let mut body = line;
    if let (Some((pattern, rest)), Some(b)) = (arm, stack.last_mut()) {
        let word = b.subject.clone().flatten();
        b.active = !b.taken && word.as_deref().is_some_and(|w| pattern_matches(pattern, w));
        b.taken |= b.active;
        body = rest;
    }
    let body = body.trim().trim_end_matches(";;").trim();
    if sets_something(body) {
        if let Some(b) = stack.iter().find(|b| !b.decided) {
            return Err(ImportError::Branch {
                line: line_no,
                opened: b.start,
            });
        }
        if let Some(&start) = loops.last() {
            return Err(ImportError::Branch {
                line: line_no,
                opened: start,
            });
        }
    }
    let keep = runs && stack.iter().all(|b| b.active);
    if keep {
        if let Some((name, value, if_unset)) = assignment(body) {
            if !(if_unset && vars.contains_key(&name)) {
                vars.insert(name, value);
            }
        }
    }
    if line.ends_with(";;") {
        if let Some(b) = stack.last_mut().filter(|b| b.subject.is_some()) {
            b.active = false;
        }
    }
    Ok(keep)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(text: &str) -> Vec<String> {
        active_text(text)
            .unwrap()
            .lines()
            .map(|l| l.trim().to_string())
            .collect()
    }

    #[test]
    fn the_branch_the_script_decides_runs() {
        let text = "MODEL=70b\nif [ \"$MODEL\" == \"8b\" ]; then\n  TP=1\nelif [[ $MODEL = 70b ]]; then\n  TP=8\nelse\n  TP=4\nfi\n--tensor-model-parallel-size $TP\n";
        let k = kept(text);
        assert_eq!(k[2], "");
        assert_eq!(k[4], "TP=8");
        assert_eq!(k[6], "");
        assert_eq!(k[8], "--tensor-model-parallel-size $TP");
        // Tests joined by || and &&; a positional default.
        let k = kept(
            "T=${1:-\"MOCK\"}\nif [[ \"$T\" == \"MOCK\" ]] || [[ -z \"$T\" ]]; then\n  A=1\nfi\n",
        );
        assert_eq!(k[2], "A=1");
        let k = kept("T=x\nif [ \"$T\" = x ] && [ -n \"$U\" ]; then\n  A=1\nfi\n");
        assert_eq!(k[2], "");
        // -z of a variable the script never sets is true.
        let k = kept(
            "if [ -z \"$DATA\" ]; then\n  A=--mock-data\nelse\n  A=\"--data-path $DATA\"\nfi\n",
        );
        assert_eq!((k[1].as_str(), k[3].as_str()), ("A=--mock-data", ""));
    }

    #[test]
    fn a_case_on_a_set_variable_takes_its_arm() {
        let text = "SIZE=405b\ncase $SIZE in\n  8b) PP=1 ;;\n  70b|405b)\n    PP=8\n    ;;\n  *) PP=2 ;;\nesac\n";
        let k = kept(text);
        assert_eq!(k[2], "");
        assert_eq!(k[4], "PP=8");
        assert_eq!(k[6], "");
    }

    #[test]
    fn an_undecided_branch_that_sets_something_is_refused() {
        let text = "if [ \"$SLURM_NNODES\" == \"64\" ]; then\n  --global-batch-size 1024\nfi\n";
        assert_eq!(
            active_text(text),
            Err(ImportError::Branch { line: 2, opened: 1 })
        );
        // A case on a variable the text does not set.
        let text = "case $CLUSTER in\n  a) TP=8 ;;\nesac\n";
        assert_eq!(
            active_text(text),
            Err(ImportError::Branch { line: 2, opened: 1 })
        );
        // Undecided but setting nothing (an echo of dashes is no flag): kept out, no refusal.
        assert!(active_text("if command -v srun; then\n  echo \"---\"\nfi\n").is_ok());
        assert!(active_text("if command -v nvidia-smi; then\n  echo ok\nfi\n").is_ok());
        // A loop that sets a flag.
        assert!(active_text("for i in 1 2; do\n  --seed $i\ndone\n").is_err());
    }

    #[test]
    fn defaults_set_by_colon_and_quoted_defaults() {
        assert_eq!(
            assignment(": \"${GBS:=1536}\""),
            Some(("GBS".into(), "1536".into(), true))
        );
        assert_eq!(
            assignment("PP=${PP:-\"8\"}"),
            Some(("PP".into(), "8".into(), false))
        );
        let k = kept("GBS=64\n: \"${GBS:=1536}\"\nif [ \"$GBS\" = 64 ]; then\n  X=1\nfi\n");
        assert_eq!(k[3], "X=1");
    }
}
