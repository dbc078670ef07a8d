package indexmapping

import (
	"reflect"
	"testing"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

func TestEachEmbedderIsAnInt8HNSWDenseVector(t *testing.T) {
	b, err := Build(searchv1alpha1.IndexSettings{Embedders: map[string]searchv1alpha1.Embedder{
		"use": {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: 512}}})
	if err != nil {
		t.Fatal(err)
	}
	got := dig(roundTrip(t, b), "mappings", "properties", VectorsField, "properties", "use")
	want := map[string]any{"type": "dense_vector", "dims": float64(512), "index": true, "similarity": "cosine",
		"index_options": map[string]any{"type": "int8_hnsw"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("use = %v, want %v", got, want)
	}
}

func TestNoEmbedderNoVectorField(t *testing.T) {
	b, err := Build(searchv1alpha1.IndexSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if got := dig(roundTrip(t, b), "mappings", "properties", VectorsField); got != nil {
		t.Errorf("%s = %v, want none", VectorsField, got)
	}
}
