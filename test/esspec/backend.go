package esspec

import (
	"context"
	"errors"
	"io"

	"github.com/elastic/go-elasticsearch/v8"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/test/esbackend"
)

// Backend starts the search backend of the tests (the embedded engine in dataDir unless
// AISLE_ES_URL names a cluster) behind a recorder that logs to log every request outside
// Elasticsearch's specification, and returns a client on the recorder and what stops
// both.
func Backend(ctx context.Context, dataDir string, log io.Writer) (*elasticsearch.TypedClient, func() error, error) {
	url, stop, err := esbackend.Start(ctx, dataDir)
	if err != nil {
		return nil, nil, err
	}
	recorder, err := Record(url, log)
	if err != nil {
		return nil, nil, errors.Join(err, stop())
	}
	client, err := es.New(recorder.URL())
	if err != nil {
		return nil, nil, errors.Join(err, recorder.Close(), stop())
	}
	return client, func() error { return errors.Join(recorder.Close(), stop()) }, nil
}
