package extract

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// A script checked out with Windows line endings fails in a way that
// names its cause: the shell prints the carriage return it was handed
// ("/usr/bin/env: 'bash\r'", "$'\r': command not found"). When the
// session then strips the CRs and the script runs, the checkout's line
// endings are a gotcha, whether or not the agent said so (it often
// does not: it strips and moves on).

var (
	// reCRShown is a shell showing a carriage return in what it ran.
	reCRShown = lazyre.New(`bash\\r['’]|\$'[^'\s]{0,12}\\r'`)
	// reCRStrip is a command taking the carriage returns out of a file.
	reCRStrip     = lazyre.New(`\bdos2unix\b|\b(?:perl|sed)\b.*\bs/\\r|\btr -d\s+["']?\\r`)
	reShellScript = lazyre.New(`[\w./-]*[\w-]\.(?:sh|bash)\b`)
	// reLineEndings is a cause already about line endings: the case the
	// line-endings check writes says it with the evidence.
	reLineEndings = lazyre.New(`(?i)\bCRLF\b|line endings?|carriage return|\\r\b`)
)

// lineEndings finds a script that failed on its carriage returns, was
// stripped of them, and then ran; at most one case per session, naming
// every script that failed so.
func lineEndings(s *transcript.Session) (Candidate, bool) {
	fails := map[string]transcript.Turn{} // script name -> its last CR failure
	var scripts []string
	stripped := map[string]string{} // script name -> the step that stripped it
	for _, t := range s.Turns {
		c := t.Call
		if c == nil || t.Prior || t.Sidechain || c.Command == "" {
			continue
		}
		if crFailure(c) {
			for _, sc := range reShellScript.FindAllString(c.Command+"\n"+c.Output, -1) {
				sc = rel(s, sc)
				name := path.Base(sc)
				if _, ok := fails[name]; !ok {
					scripts = append(scripts, sc)
				}
				fails[name] = t
			}
			continue
		}
		if len(fails) == 0 || c.Status != transcript.OK {
			continue
		}
		for _, seg := range splitSegments(c.Command) {
			if reCRStrip.MatchString(seg) {
				for _, sc := range reShellScript.FindAllString(seg, -1) {
					stripped[path.Base(sc)] = strings.TrimSpace(seg)
				}
			}
		}
		if name, run, ok := runsStripped(c.Command, fails, stripped); ok {
			return lineEndingsCase(fails[name], t, stripped[name], run, scripts), true
		}
	}
	return Candidate{}, false
}

// crFailure reports a call that failed on a carriage return in what it
// ran ("not found" is how Codex files env's failure to find "bash\r").
func crFailure(c *transcript.Call) bool {
	return (c.Status == transcript.Failed || c.Status == transcript.NotRun && c.Why == "not-found") && reCRShown.MatchString(c.Output)
}

// runsStripped reports a command line running a script that failed on
// its carriage returns after they were stripped: the script itself, or
// a stripped copy the same line made ("tr -d '\r' < x.sh > $tmp; bash
// $tmp").
func runsStripped(cmd string, fails map[string]transcript.Turn, stripped map[string]string) (name, run string, ok bool) {
	for _, seg := range splitSegments(cmd) {
		f := strings.Fields(seg)
		if len(f) == 0 || reCRStrip.MatchString(seg) {
			continue
		}
		script := f[0]
		if (script == "bash" || script == "sh") && len(f) > 1 {
			script = strings.Trim(f[1], `"'`)
		}
		seg = strings.TrimSpace(seg)
		if _, failed := fails[path.Base(script)]; failed && stripped[path.Base(script)] != "" {
			return path.Base(script), seg, true
		}
		if !strings.HasPrefix(script, "$") || script == f[0] {
			continue
		}
		// bash "$tmp": the copy this line stripped of a script that failed.
		for _, sc := range reShellScript.FindAllString(cmd, -1) {
			if name := path.Base(sc); stripped[name] != "" {
				if _, failed := fails[name]; failed {
					return name, seg, true
				}
			}
		}
	}
	return "", "", false
}

// lineEndingsCase writes the case: the failure, the cause the error
// shows, the step that stripped the CRs, and the run that then worked.
func lineEndingsCase(failed, ran transcript.Turn, strip, run string, scripts []string) Candidate {
	title := fmt.Sprintf("`%s` has CRLF line endings: strip the \\r first", scripts[0])
	if dir := path.Dir(scripts[0]); len(scripts) > 1 && !slices.ContainsFunc(scripts, func(sc string) bool { return path.Dir(sc) != dir }) {
		title = fmt.Sprintf("Scripts in `%s` have CRLF line endings: strip the \\r first", dir)
	} else if len(scripts) > 1 {
		title = "Shell scripts here have CRLF line endings: strip the \\r first"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Symptom: `%s` failed: %s\n\n", shortCmd(failed.Call.Command), crLine(failed.Call.Output))
	b.WriteString("Cause: Windows (CRLF) line endings: the shell takes the \\r that ends each line as part of the command, as the error shows.\n\n")
	fmt.Fprintf(&b, "Fix: strip the carriage returns first: `%s`.\n\n", clip(strip, 120))
	fmt.Fprintf(&b, "Verified: `%s` ran afterwards.\n", clip(run, 100))
	if len(scripts) > 1 {
		fmt.Fprintf(&b, "\nSeen with: %s.\n", strings.Join(scripts, ", "))
	}
	return Candidate{Kind: schema.KindCase, Scope: schema.ScopeProject, Title: titleFrom(title), Body: b.String(),
		Summary: clip(oneLine(title), 200), Tags: []string{"gotcha"}, Turns: []string{failed.Ref, ran.Ref},
		Tools: []string{failed.Call.ID}, Rule: "line endings: \\r in the error, stripped, then ran", Confidence: 0.85, Time: ran.Time}
}

// crLine is the line of a failure's output that shows the carriage
// return.
func crLine(out string) string {
	for l := range strings.SplitSeq(out, "\n") {
		if reCRShown.MatchString(l) {
			return clip(strings.TrimSpace(l), 200)
		}
	}
	return errorMessage(out)
}
