package yamlrest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Status is the outcome of one test section.
type Status int

// Outcomes of a test section.
const (
	Passed Status = iota
	Failed
	Skipped
)

func (s Status) String() string {
	return [...]string{"passed", "failed", "skipped"}[s]
}

// Result is the outcome of one test section.
type Result struct {
	Status Status
	// Reason says why a test was skipped.
	Reason string
	// Err describes the failure: step, request and actual response.
	Err error
	// SkippedSteps lists steps left out through the skip list.
	SkippedSteps []string
}

// SkipList decides which tests or single steps the project chose not to
// run. test is the section name ("setup"/"teardown" for those); step is nil
// when asking about the whole test. It returns the reason, or "".
type SkipList interface {
	Skip(file, test string, step *Step) string
}

// Runner executes test sections against one server.
type Runner struct {
	BaseURL string
	Client  *http.Client
	Specs   *Specs
	Env     Env
	Skips   SkipList
}

// NewRunner asks the server at base for its version (GET /) to evaluate
// version-based skips.
func NewRunner(ctx context.Context, base string, specs *Specs, features map[string]bool, skips SkipList) (*Runner, error) {
	r := &Runner{BaseURL: base, Client: &http.Client{Timeout: 60 * time.Second}, Specs: specs, Skips: skips}
	req, err := specs.Build("info", map[string]any{})
	if err != nil {
		return nil, err
	}
	resp, err := send(ctx, r.Client, base, req)
	if err != nil {
		return nil, fmt.Errorf("GET / on %s: %w", base, err)
	}
	st := NewStash()
	num, _, _ := st.Eval(resp.Body, "version.number")
	v, err := ParseVersion(scalarString(num))
	if err != nil {
		return nil, fmt.Errorf("GET / on %s gave no version.number: %s", base, resp)
	}
	r.Env = Env{Version: v, ClusterFeatures: features}
	return r, nil
}

// Run executes one test section of f: skip checks, setup, the test,
// teardown, then a wipe of all indices so the next test starts clean.
func (r *Runner) Run(ctx context.Context, f *File, t *Section) Result {
	if why, err := r.skipReason(f, t); err != nil {
		return Result{Status: Failed, Err: err}
	} else if why != "" {
		return Result{Status: Skipped, Reason: why}
	}
	x := &execution{r: r, file: f.Name, stash: NewStash()}
	err := x.runSection(ctx, f.Setup)
	if err == nil {
		err = x.runSection(ctx, t)
	}
	if terr := x.runSection(ctx, f.Teardown); err == nil {
		err = terr
	}
	if werr := r.Wipe(ctx); err == nil && werr != nil {
		err = fmt.Errorf("wiping indices after the test: %w", werr)
	}
	res := Result{Status: Passed, SkippedSteps: x.skipped}
	if err != nil {
		res.Status, res.Err = Failed, err
	}
	return res
}

// skipReason checks the skip list, then the skip/requires steps leading
// setup, teardown and the test, as ES's runner does.
func (r *Runner) skipReason(f *File, t *Section) (string, error) {
	if r.Skips != nil {
		if why := r.Skips.Skip(f.Name, t.Name, nil); why != "" {
			return "skip list: " + why, nil
		}
	}
	for _, sec := range []*Section{f.Setup, f.Teardown, t} {
		if sec == nil {
			continue
		}
		for _, s := range leadingChecks(sec) {
			why, err := r.Env.SkipReason(s)
			if err != nil || why != "" {
				return why, err
			}
		}
	}
	return "", nil
}

func leadingChecks(sec *Section) []Step {
	var out []Step
	for _, s := range sec.Steps {
		if s.Op != "skip" && s.Op != "requires" {
			break
		}
		out = append(out, s)
	}
	return out
}

// Wipe deletes every index (and so every alias), like ES's runner wipes
// the cluster between tests. It names the indices explicitly because ES 8
// refuses wildcard deletes by default.
func (r *Runner) Wipe(ctx context.Context) error {
	names, err := r.indexNames(ctx)
	if err != nil || len(names) == 0 {
		return err
	}
	req, err := r.Specs.Build("indices.delete", map[string]any{"index": strings.Join(names, ",")})
	if err != nil {
		return err
	}
	resp, err := send(ctx, r.Client, r.BaseURL, req)
	if err != nil {
		return err
	}
	if resp.Status >= 300 {
		return fmt.Errorf("%s: %s", req, resp)
	}
	return nil
}

// indexNames lists every index through standard list APIs, trying the
// broadest first; a server lacking one form (answering 4xx) gets the next.
func (r *Runner) indexNames(ctx context.Context) ([]string, error) {
	calls := []struct {
		api  string
		args map[string]any
	}{
		{"indices.get", map[string]any{"index": "_all", "expand_wildcards": "all"}},
		{"indices.get", map[string]any{"index": "*", "expand_wildcards": "all"}},
		{"indices.get_alias", map[string]any{}},
	}
	var last *Response
	for _, c := range calls {
		req, err := r.Specs.Build(c.api, c.args)
		if err != nil {
			return nil, err
		}
		resp, err := send(ctx, r.Client, r.BaseURL, req)
		if err != nil {
			return nil, err
		}
		if m, ok := resp.Body.(map[string]any); ok && resp.Status == http.StatusOK {
			return sortedKeys(m), nil
		}
		last = resp
	}
	return nil, fmt.Errorf("listing indices: %s", last)
}

// StepError reports a failed step with the last request and response.
type StepError struct {
	Section  string
	Step     Step
	Request  *Request
	Response *Response
	Err      error
}

func (e *StepError) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "[%s] %s\n  error: %v", e.Section, e.Step, e.Err)
	if e.Request != nil {
		fmt.Fprintf(&sb, "\n  request: %s", e.Request)
	}
	if e.Response != nil {
		fmt.Fprintf(&sb, "\n  response: %s", e.Response)
	}
	return sb.String()
}

func (e *StepError) Unwrap() error { return e.Err }

// IsStepError reports whether err came from a step (as opposed to setup
// of the runner itself).
func IsStepError(err error) bool {
	var se *StepError
	return errors.As(err, &se)
}
