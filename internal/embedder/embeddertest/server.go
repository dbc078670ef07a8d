// Package embeddertest is a local embedding server for tests at the boundary of an
// openAI embedder: it speaks POST /v1/embeddings, gives each text a deterministic vector
// (a normalised hashed bag of its words, so texts sharing words point alike), counts the
// texts it embedded, and fails on demand with 429s, 5xx and stalls.
package embeddertest

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Fault is the answer of one call that fails instead of embedding.
type Fault struct {
	// Status is the answer's status (429, 500, ...); a stall without one answers 504
	// after it (no text of a timed-out call is ever embedded).
	Status int
	// RetryAfter is the 429's Retry-After in seconds, when set.
	RetryAfter string
	// Stall holds the call this long before answering (a timeout for a shorter client).
	Stall time.Duration
}

// Server is the test embedding server.
type Server struct {
	*httptest.Server
	mu      sync.Mutex
	faults  []Fault
	every   int // every n-th call fails with the next fault of faults, when > 0
	calls   int
	failed  int
	texts   map[string]int
	auth    []string
	dims    int
	refuses bool
	sent    []int // the dimensions field of each call, 0 when absent
	slow    time.Duration
}

// New starts a server of dims-dimension vectors.
func New(dims int) *Server {
	s := &Server{texts: map[string]int{}, dims: dims}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// FailNext makes the next calls answer with faults, in order.
func (s *Server) FailNext(faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, faults...)
}

// FailEvery makes every n-th call fail with the faults given, in turn, for good.
func (s *Server) FailEvery(n int, faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.every, s.faults = n, faults
}

// Slow makes every call that answers take d first, as a large model on a busy server
// does.
func (s *Server) Slow(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.slow = d
}

// Count is how many times text was embedded (in calls that answered).
func (s *Server) Count(text string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.texts[text]
}

// Texts are the embedded texts with their counts.
func (s *Server) Texts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.texts))
	for t, n := range s.texts {
		out[t] = n
	}
	return out
}

// Failed is how many calls failed by a fault.
func (s *Server) Failed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed
}

// Authorizations are the Authorization headers of the calls, in order.
func (s *Server) Authorizations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auth...)
}

// SentDimensions is the dimensions field of each call, in order (0 where it was absent);
// a call asking for fewer dimensions than the server's gets its vectors shortened and
// normalised again, as OpenAI's text-embedding-3 models do.
func (s *Server) SentDimensions() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.sent...)
}

type request struct {
	Model      string   `json:"model"`
	Input      []string `json:"input"`
	Dimensions int      `json:"dimensions"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.Error(w, `{"error": "not found"}`, http.StatusNotFound)
		return
	}
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Input) == 0 || req.Model == "" {
		http.Error(w, `{"error": "bad request"}`, http.StatusBadRequest)
		return
	}
	if f, ok := s.fault(r.Header.Get("Authorization"), req.Dimensions); ok {
		if f.Stall > 0 {
			select {
			case <-time.After(f.Stall):
			case <-r.Context().Done():
				return
			}
		}
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		status := f.Status
		if status == 0 {
			status = http.StatusGatewayTimeout
		}
		http.Error(w, `{"error": "injected"}`, status)
		return
	}
	if d := s.delay(); d > 0 {
		select {
		case <-time.After(d):
		case <-r.Context().Done():
			return
		}
	}
	type datum struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	dims := s.dims
	if req.Dimensions > 0 && req.Dimensions < dims {
		dims = req.Dimensions
	}
	data := make([]datum, len(req.Input))
	s.mu.Lock()
	for i, t := range req.Input {
		data[i] = datum{Object: "embedding", Index: i, Embedding: Vector(t, dims)}
		s.texts[t]++
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

func (s *Server) delay() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.slow
}

// fault is the failure of this call, if any, and records its Authorization and
// dimensions.
func (s *Server) fault(auth string, dims int) (Fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	s.auth = append(s.auth, auth)
	s.sent = append(s.sent, dims)
	if len(s.faults) == 0 {
		return Fault{}, false
	}
	if s.every > 0 {
		if s.calls%s.every != 0 {
			return Fault{}, false
		}
		f := s.faults[(s.calls/s.every)%len(s.faults)]
		s.failed++
		return f, true
	}
	f := s.faults[0]
	s.faults = s.faults[1:]
	s.failed++
	return f, true
}

// Vector is text's vector: each lower-cased word adds 1 at its hash's place, and the
// sum is normalised (a text of no word gets the first axis).
func Vector(text string, dims int) []float32 {
	v := make([]float64, dims)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		h := fnv.New32a()
		_, _ = h.Write([]byte(w))
		v[int(h.Sum32())%dims]++
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, dims)
	if norm == 0 {
		out[0] = 1
		return out
	}
	for i, x := range v {
		out[i] = float32(x / math.Sqrt(norm))
	}
	return out
}
