package search

import "github.com/aislehq/aisle/internal/searchquery"

// matchingStrategy all's retry, the one loop of it: a search (an API search and a facet
// value search alike) is compiled without its last drop words and sent; when its answer
// says nothing matched and its plan may drop one more word (searchquery.NextDrop), it is
// compiled and sent again. job is that loop; what it tries is a try.

// try is one attempt of a search, compiled without some words of its query: the rounds it
// sends and what it makes of their answers.
type try interface {
	// round is what the try sends next; nil once it has its answer.
	round() [][]byte
	// take reads the answers to its round. Once they tell whether the search matched, the
	// verdict says so (settled) and the try waits for keep.
	take(answers [][]byte, errs []error) (verdict, error)
	// keep goes on from the answer the try settled on: to its next round or its answer.
	keep() error
}

// verdict is what an answer tells of a try: settled, whether anything matched and
// whether its plan may drop one more word (retry).
type verdict struct {
	settled, matched, retry bool
}

// job is a search in progress, retried through its tries until one keeps.
type job[T try] struct {
	alias string
	// drop is the number of words the current try drops from the end of the query.
	drop int
	// compile is the search's try dropping drop words.
	compile func(drop int) (T, error)
	// cur is the current try; err ends the search.
	cur T
	err error
}

// newRetrying starts the search of compile against the index behind alias, dropping
// drop words first.
func newRetrying[T try](alias string, drop int, compile func(drop int) (T, error)) (*job[T], error) {
	cur, err := compile(drop)
	if err != nil {
		return nil, err
	}
	return &job[T]{alias: alias, drop: drop, compile: compile, cur: cur}, nil
}

// bodies are what the search sends next; nil once done.
func (j *job[T]) bodies() [][]byte {
	if j.err != nil {
		return nil
	}
	return j.cur.round()
}

// advance gives the answers to the current try's round to it: a try whose search matched
// nothing is followed by one dropping one more word, when its plan allows.
func (j *job[T]) advance(answers [][]byte, errs []error) {
	v, err := j.cur.take(answers, errs)
	if err == nil && v.settled {
		if drop, again := searchquery.NextDrop(v.retry, v.matched, j.drop); again {
			err = j.retry(drop)
		} else {
			err = j.cur.keep()
		}
	}
	j.err = err
}

// retry starts the try dropping drop words; a failed compile keeps the current one.
func (j *job[T]) retry(drop int) error {
	cur, err := j.compile(drop)
	if err != nil {
		return err
	}
	j.drop, j.cur = drop, cur
	return nil
}
