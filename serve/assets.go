package serve

import (
	"embed"
	"html/template"
	"io/fs"
)

// web holds the viewer: plain HTML, CSS and JavaScript, no build step and
// nothing fetched from elsewhere.
//
//go:embed web
var web embed.FS

func webAssets() (*template.Template, fs.FS, error) {
	sub, err := fs.Sub(web, "web")
	if err != nil {
		return nil, nil, err
	}
	page, err := template.ParseFS(sub, "index.html")
	if err != nil {
		return nil, nil, err
	}
	return page, sub, nil
}
