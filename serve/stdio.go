package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport is MCP over newline-delimited JSON-RPC on a pair of
// streams, hardened for what clients really send:
//
//   - a line that is not a JSON-RPC 2.0 message (not JSON, an array, a
//     missing "jsonrpc", an object as id, NUL bytes, a frame over MaxLine)
//     is answered with a JSON-RPC error (-32700 parse error, -32600
//     invalid request) and the server reads on, where the SDK's own
//     transport ends the session;
//   - when the input ends, every request already read is answered before
//     the connection closes (a client may write its requests and close
//     stdin at once), within Drain.
type StdioTransport struct {
	In  io.Reader
	Out io.Writer
	// MaxLine bounds one message; 0 means DefaultMaxLine.
	MaxLine int
	// Drain bounds the wait for answers after the input ends; 0 means
	// DefaultDrain.
	Drain time.Duration
	// Warn receives what was refused, for the server's log (stderr).
	Warn func(msg string)
}

// Limits of the stdio transport.
const (
	DefaultMaxLine = 4 << 20
	DefaultDrain   = 2 * time.Minute
)

// Connect starts reading the input.
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &stdioConn{t: t, in: make(chan jsonrpc.Message), closed: make(chan struct{}), pending: map[jsonrpc.ID]bool{}, idle: make(chan struct{}, 1)}
	if c.t.MaxLine <= 0 {
		c.t.MaxLine = DefaultMaxLine
	}
	if c.t.Drain <= 0 {
		c.t.Drain = DefaultDrain
	}
	go c.readLoop()
	return c, nil
}

type stdioConn struct {
	t      *StdioTransport
	in     chan jsonrpc.Message // closed when the input ends
	wmu    sync.Mutex
	closed chan struct{}
	once   sync.Once

	pmu     sync.Mutex
	pending map[jsonrpc.ID]bool // requests read and not yet answered
	idle    chan struct{}       // signalled when pending empties
}

func (c *stdioConn) SessionID() string { return "" }

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg, ok := <-c.in:
		if ok {
			if req, isReq := msg.(*jsonrpc.Request); isReq && req.IsCall() {
				c.pmu.Lock()
				c.pending[req.ID] = true
				c.pmu.Unlock()
			}
			return msg, nil
		}
		return nil, c.drain(ctx)
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	}
}

// drain waits until every request read has been answered, then reports
// the end of the input.
func (c *stdioConn) drain(ctx context.Context) error {
	deadline := time.NewTimer(c.t.Drain)
	defer deadline.Stop()
	for {
		c.pmu.Lock()
		n := len(c.pending)
		c.pmu.Unlock()
		if n == 0 {
			return io.EOF
		}
		select {
		case <-c.idle:
		case <-deadline.C:
			c.warn(fmt.Sprintf("input closed; %d request(s) still unanswered after %s", n, c.t.Drain))
			return io.EOF
		case <-ctx.Done():
			return ctx.Err()
		case <-c.closed:
			return io.EOF
		}
	}
}

func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	if err := c.writeLine(data); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.pmu.Lock()
		delete(c.pending, resp.ID)
		empty := len(c.pending) == 0
		c.pmu.Unlock()
		if empty {
			select {
			case c.idle <- struct{}{}:
			default:
			}
		}
	}
	return nil
}

func (c *stdioConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.t.Out.Write(append(data, '\n'))
	return err
}

func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *stdioConn) warn(msg string) {
	if c.t.Warn != nil {
		c.t.Warn("mcp: " + msg)
	}
}

// readLoop reads lines, answers the ones that are not JSON-RPC messages,
// and hands the others to the server.
func (c *stdioConn) readLoop() {
	defer close(c.in)
	r := bufio.NewReaderSize(c.t.In, 64<<10)
	for {
		line, tooLong, err := readLine(r, c.t.MaxLine)
		if tooLong {
			c.refuse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message larger than %d bytes", c.t.MaxLine))
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			if msg := c.decode(line); msg != nil {
				select {
				case c.in <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.warn("reading input: " + err.Error())
			}
			return
		}
	}
}

// readLine returns the next line without its newline, or reports that
// it was longer than max (the rest of it is skipped).
func readLine(r *bufio.Reader, max int) ([]byte, bool, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
	}
}

// probe is a message's envelope, read without trusting its types.
type probe struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// decode returns the message on line, or nil after answering a line that
// is not a valid JSON-RPC 2.0 message.
func (c *stdioConn) decode(line []byte) jsonrpc.Message {
	if !json.Valid(line) {
		c.refuse(nil, jsonrpc.CodeParseError, "parse error: not JSON")
		return nil
	}
	switch line[0] {
	case '{':
	case '[':
		c.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported; send one message per line")
		return nil
	default:
		c.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: a message is a JSON object")
		return nil
	}
	var p probe
	if err := json.Unmarshal(line, &p); err != nil {
		c.refuse(nil, jsonrpc.CodeParseError, "parse error: "+err.Error())
		return nil
	}
	id, idOK := validID(p.ID)
	var answer any
	if idOK {
		answer = id
	}
	switch {
	case !idOK:
		c.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: id must be a string, a number or null")
		return nil
	case string(p.JSONRPC) != `"2.0"`:
		c.refuse(answer, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
		return nil
	case p.Method == nil && p.Result == nil && p.Error == nil:
		c.refuse(answer, jsonrpc.CodeInvalidRequest, "invalid request: no method")
		return nil
	case p.Method != nil && (len(p.Method) == 0 || p.Method[0] != '"'):
		c.refuse(answer, jsonrpc.CodeInvalidRequest, "invalid request: method must be a string")
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		c.refuse(answer, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	return msg
}

// validID reports whether raw is an acceptable request id (absent, null,
// a string or a number) and returns it decoded.
func validID(raw json.RawMessage) (any, bool) {
	if len(raw) == 0 {
		return nil, true
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, false
	}
	switch v.(type) {
	case nil, string, float64:
		return v, true
	}
	return nil, false
}

// refuse answers a line that is not a valid message. Notifications get
// no answer in JSON-RPC, but a line too broken to tell gets one with a
// null id, which is what the specification asks for.
func (c *stdioConn) refuse(id any, code int64, msg string) {
	c.warn(msg)
	out, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	if err == nil {
		_ = c.writeLine(out)
	}
}
