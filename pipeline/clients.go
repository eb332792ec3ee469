package pipeline

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/task"
)

// Connection is how online models are reached: the API root, the key and
// the client's retry and timeout settings.
type Connection struct {
	// BaseURL is the OpenAI-compatible API root, resolved by the caller
	// (the command reads --base-url, else $OPENROUTER_BASE_URL); "" is
	// model.DefaultBaseURL. The pipeline reads no environment.
	BaseURL string
	// APIKey is sent to online models; "" fails any online model with
	// ErrNoKey.
	APIKey      string
	Retries     config.Retries
	IdleTimeout time.Duration
	// Bookkeeping bounds each call made for the harness's own accounting
	// (GET /generation, /key, the listings, the endpoints; model.
	// WithBookkeeping); 0 is config.DefaultBookkeeping.
	Bookkeeping time.Duration
}

// ConnectionFrom returns the connection a configuration asks for.
func ConnectionFrom(cfg *config.Config, baseURL, apiKey string) Connection {
	return Connection{BaseURL: baseURL, APIKey: apiKey, Retries: cfg.Retries, IdleTimeout: cfg.Timeouts.Idle.Duration,
		Bookkeeping: cfg.Timeouts.BookkeepingTimeout()}
}

// Clients is the one client factory: a client per model, the offline
// reference models and judge answered in process from set, every other
// model through one OpenRouter client. online lists the models that go
// over the network, in the order given.
func (c Connection) Clients(models []string, set *task.Set) (clients map[string]model.Client, online []string, err error) {
	clients = map[string]model.Client{}
	var or *model.OpenRouter
	for _, m := range models {
		if clients[m] != nil {
			continue
		}
		switch {
		case m == judge.OfflineJudge:
			clients[m] = judge.NewOffline(set)
		case offline.IsOffline(m):
			om, err := offline.New(m, set)
			if err != nil {
				return nil, nil, usage.Wrap(err)
			}
			clients[m] = om
		default:
			if or == nil {
				if or, err = c.openRouter(); err != nil {
					return nil, nil, err
				}
			}
			clients[m] = or
			online = append(online, m)
		}
	}
	return clients, online, nil
}

// recorded is the API root a run's manifest records: the one its online
// models are asked through, or "" for a run that has none.
func (c Connection) recorded(online []string) string {
	if len(online) == 0 {
		return ""
	}
	return c.baseURL()
}

// baseURL is the API root online models are asked through.
func (c Connection) baseURL() string {
	return cmp.Or(c.BaseURL, model.DefaultBaseURL)
}

func (c Connection) openRouter() (*model.OpenRouter, error) {
	if c.APIKey == "" {
		if base := strings.TrimSuffix(c.baseURL(), "/"); base != model.DefaultBaseURL {
			// Issue 56: a local server's run was told to run make demo.
			return nil, fmt.Errorf("%w: the harness sends it to every API root, %s included; set it to a key that server accepts (any value for a server that checks none)", errNoKeyAt, base)
		}
		return nil, ErrNoKey
	}
	if err := model.CheckAPIKey(c.APIKey); err != nil {
		return nil, usage.Wrap(err)
	}
	base := c.baseURL()
	if err := model.CheckBaseURL(base); err != nil {
		return nil, usage.Wrap(err)
	}
	opts := []model.Option{model.WithAPIKey(c.APIKey), model.WithBaseURL(base), model.WithMaxRetries(c.Retries.Max),
		model.WithBookkeeping(cmp.Or(c.Bookkeeping, config.DefaultBookkeeping), min(c.Retries.Max, config.BookkeepingRetries))}
	if c.IdleTimeout > 0 {
		opts = append(opts, model.WithIdleTimeout(c.IdleTimeout))
	}
	if c.Retries.BackoffBase.Duration > 0 && c.Retries.BackoffMax.Duration > 0 {
		opts = append(opts, model.WithBackoff(c.Retries.BackoffBase.Duration, c.Retries.BackoffMax.Duration))
	}
	return model.NewOpenRouter(opts...), nil
}

// CheckJudges refuses judges that cannot judge: the offline task models
// answer tasks, not judge requests.
func CheckJudges(judges []string) error {
	for _, j := range judges {
		if offline.IsOffline(j) && j != judge.OfflineJudge {
			return usage.Wrap(fmt.Errorf("%s cannot judge class A answers; with offline models pass --judges %s", j, judge.OfflineJudge))
		}
	}
	return nil
}
