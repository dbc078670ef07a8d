package mapper

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Unqueryable reports whether a field type is accepted in mappings and documents only for
// exists and _source: geo_point and date_range values are validated and recorded in
// _field_names, but geo queries and range-field queries are outside the engine's subset, so
// term/range/match queries, sorts and aggregations on them are refused with a 400. A
// dense_vector field is searched by the knn query alone, as in ES.
func Unqueryable(t string) bool { return t == "geo_point" || t == "date_range" || t == DenseVector }

// special indexes a value of a field type whose JSON shape is not a plain scalar: geo_point
// ([lon, lat], "lat,lon", {"lat":..,"lon":..}) and date_range ({"gte":..,"lt":..}). It must
// see arrays before the generic array walk splits a [lon, lat] pair into two values.
func (w *walker) special(path string, f *Field, v any) error {
	if arr, ok := v.([]any); ok && (f.Type != "geo_point" || !isLonLat(arr)) {
		for _, el := range arr {
			if el == nil {
				continue
			}
			if err := w.special(path, f, el); err != nil {
				return err
			}
		}
		return nil
	}
	var err error
	if f.Type == "geo_point" {
		err = checkGeoPoint(v)
	} else {
		err = checkDateRange(v, f.Format)
	}
	if err != nil {
		return w.typeErr(path, f.Type, v, err.Error())
	}
	w.seen[path] = true
	return nil
}

// isLonLat reports whether an array is one point in GeoJSON order ([lon, lat] or with z).
func isLonLat(arr []any) bool {
	if len(arr) < 2 || len(arr) > 3 {
		return false
	}
	for _, el := range arr {
		if _, ok := el.(json.Number); !ok {
			return false
		}
	}
	return true
}

func checkGeoPoint(v any) error {
	switch x := v.(type) {
	case []any:
		lon, _ := x[0].(json.Number).Float64()
		lat, _ := x[1].(json.Number).Float64()
		return checkLatLon(lat, lon)
	case string:
		return checkGeoString(x)
	case map[string]any:
		lat, lerr := ToNumber(x["lat"], "double")
		lon, oerr := ToNumber(x["lon"], "double")
		if lerr != nil || oerr != nil {
			return fmt.Errorf("field [lat] and [lon] must be valid double values")
		}
		return checkLatLon(lat, lon)
	}
	return fmt.Errorf("geo_point expected")
}

// checkGeoString accepts "lat,lon" and geohashes (base32 without a, i, l, o).
func checkGeoString(s string) error {
	if latS, lonS, ok := strings.Cut(s, ","); ok {
		lat, err1 := strconv.ParseFloat(strings.TrimSpace(latS), 64)
		lon, err2 := strconv.ParseFloat(strings.TrimSpace(lonS), 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("latitude and longitude must be numbers: [%s]", s)
		}
		return checkLatLon(lat, lon)
	}
	if s == "" || len(s) > 12 || strings.Trim(strings.ToLower(s), "0123456789bcdefghjkmnpqrstuvwxyz") != "" {
		return fmt.Errorf("unsupported symbol in geohash [%s]", s)
	}
	return nil
}

func checkLatLon(lat, lon float64) error {
	if math.IsNaN(lat) || lat < -90 || lat > 90 {
		return fmt.Errorf("illegal latitude value [%v]", lat)
	}
	if math.IsNaN(lon) || lon < -180 || lon > 180 {
		return fmt.Errorf("illegal longitude value [%v]", lon)
	}
	return nil
}

// checkDateRange validates a range value: an object of gt/gte/lt/lte dates in the field's
// format, as ES's date_range parser accepts.
func checkDateRange(v any, format string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("error parsing field [%v], expected an object but got %s", v, preview(v))
	}
	for k, bound := range m {
		switch k {
		case "gt", "gte", "lt", "lte":
		default:
			return fmt.Errorf("error parsing range field, with unknown parameter [%s]", k)
		}
		if bound == nil {
			continue
		}
		if _, err := ParseDate(scalarDateInput(bound), format); err != nil {
			return err
		}
	}
	return nil
}
