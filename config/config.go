package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// ErrInvalid marks a configuration file that cannot be used.
var ErrInvalid = errors.New("invalid configuration")

// FileName is the configuration file at the root of every vault.
const FileName = "cairn.yaml"

// Version is the configuration format this build writes and reads.
const Version = 1

// Config is the content of cairn.yaml.
type Config struct {
	Version int    `yaml:"version"`
	Author  Author `yaml:"author"`
}

// Author signs cairn's commits in this vault.
type Author struct {
	Name  string `yaml:"name"`
	Email string `yaml:"email"`
}

// Default returns the configuration used when a field is not set.
func Default() Config {
	return Config{Version: Version}
}

var lineRe = regexp.MustCompile(`line (\d+): `)

// Parse decodes cairn.yaml content over the defaults. file names the file in
// errors.
func Parse(file string, data []byte) (Config, error) {
	cfg := Default()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return cfg, fmt.Errorf("%w: %s", ErrInvalid, locate(file, err))
	}
	if err := cfg.validate(); err != nil {
		return cfg, fmt.Errorf("%w: %s: %v", ErrInvalid, file, err)
	}
	return cfg, nil
}

// locate rewrites yaml.v3's "yaml: line N: msg" as "file:N: msg", one line
// per problem.
func locate(file string, err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	var out []string
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if m := lineRe.FindStringSubmatch(l); m != nil {
			l = fmt.Sprintf("%s:%s: %s", file, m[1], strings.TrimPrefix(l, m[0]))
		} else {
			l = file + ": " + l
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func (c Config) validate() error {
	if c.Version != Version {
		return fmt.Errorf("version %d is not supported by this cairn (want %d)", c.Version, Version)
	}
	return nil
}

// Load reads the configuration file at path. A missing file yields the
// defaults.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Default(), err
	}
	return Parse(path, data)
}
