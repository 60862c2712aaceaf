//! Where tasks live while they run and after: bounded in time (each task is dropped `ttl` after
//! it was created, and its work cancelled) and in count (`max_tasks`: the oldest finished task
//! makes room; when every slot runs, a new task is refused).

use super::tasks::TaskSettings;
use rmcp::ErrorData as McpError;
use rmcp::model::{DetailedTask, InputRequests, JsonObject, Task, TaskPayload, TaskStatus};
use rmcp::task_manager::current_timestamp;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

/// How a task ended.
pub(crate) enum Outcome {
    /// The tool answered (a tool error included: `isError: true`).
    Completed(JsonObject),
    /// A protocol-level failure: a JSON-RPC error object.
    Failed(JsonObject),
    /// `tasks/cancel` stopped it.
    Cancelled,
}

enum Stage {
    Working,
    /// Questions the client has not answered yet; `answered` holds those it has.
    Waiting {
        pending: InputRequests,
        answered: Map<String, Value>,
        resume: Option<oneshot::Sender<Map<String, Value>>>,
    },
    Done(TaskPayload),
}

struct Entry {
    task: Task,
    created: Instant,
    finished: Option<Instant>,
    stage: Stage,
    cancel: CancellationToken,
}

/// Every task of one server; cheap to clone, clones share the tasks.
#[derive(Clone)]
pub(crate) struct TaskStore {
    settings: TaskSettings,
    tasks: Arc<Mutex<HashMap<String, Entry>>>,
}

/// Every slot holds a running task.
pub(crate) struct Full {
    pub limit: usize,
}

impl TaskStore {
    pub fn new(settings: TaskSettings) -> Self {
        Self {
            settings,
            tasks: Arc::default(),
        }
    }

    pub fn settings(&self) -> &TaskSettings {
        &self.settings
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        let ttl = self.settings.ttl;
        // Past its ttl a task is gone: its work is cancelled and its result forgotten.
        tasks.retain(|_, entry| {
            let alive = entry.created.elapsed() < ttl;
            if !alive {
                entry.cancel.cancel();
            }
            alive
        });
        tasks
    }

    /// A new working task, observable by `get` before this returns; `cancel` stops its work.
    pub fn create(&self, cancel: CancellationToken) -> Result<Task, Full> {
        let mut tasks = self.lock();
        if tasks.len() >= self.settings.max_tasks {
            let oldest_finished = tasks
                .iter()
                .filter_map(|(id, e)| e.finished.map(|at| (at, id.clone())))
                .min();
            match oldest_finished {
                Some((_, id)) => {
                    tasks.remove(&id);
                }
                None => {
                    return Err(Full {
                        limit: self.settings.max_tasks,
                    });
                }
            }
        }
        let now = current_timestamp();
        let mut task = Task::new(new_id(), TaskStatus::Working, now.clone(), now);
        task.ttl_ms = Some(millis(self.settings.ttl));
        task.poll_interval_ms = Some(millis(self.settings.poll_interval).max(1));
        tasks.insert(
            task.task_id.clone(),
            Entry {
                task: task.clone(),
                created: Instant::now(),
                finished: None,
                stage: Stage::Working,
                cancel,
            },
        );
        Ok(task)
    }

    /// `tasks/get`.
    pub fn get(&self, id: &str) -> Result<DetailedTask, McpError> {
        let tasks = self.lock();
        let entry = tasks.get(id).ok_or_else(|| unknown(id))?;
        let payload = match &entry.stage {
            Stage::Working => TaskPayload::Working,
            Stage::Waiting { pending, .. } => TaskPayload::InputRequired {
                input_requests: pending.clone(),
            },
            Stage::Done(payload) => payload.clone(),
        };
        Ok(DetailedTask::new(entry.task.clone(), payload))
    }

    /// `tasks/update`: answers to pending questions are kept, others ignored; once every
    /// question is answered the task resumes.
    pub fn answer(&self, id: &str, responses: Map<String, Value>) -> Result<(), McpError> {
        let mut tasks = self.lock();
        let entry = tasks.get_mut(id).ok_or_else(|| unknown(id))?;
        if let Stage::Waiting {
            pending,
            answered,
            resume,
        } = &mut entry.stage
        {
            for (key, value) in responses {
                if pending.remove(&key).is_some() {
                    answered.insert(key, value);
                }
            }
            if pending.is_empty() {
                if let Some(resume) = resume.take() {
                    let _ = resume.send(std::mem::take(answered));
                }
                entry.stage = Stage::Working;
            }
            entry.task.last_updated_at = current_timestamp();
        }
        Ok(())
    }

    /// `tasks/cancel`: stops the work of a task that runs; a finished task stays as it is.
    pub fn cancel(&self, id: &str) -> Result<(), McpError> {
        let tasks = self.lock();
        let entry = tasks.get(id).ok_or_else(|| unknown(id))?;
        if entry.finished.is_none() {
            entry.cancel.cancel();
        }
        Ok(())
    }

    /// Parks the task on `questions`; resolves with the answers once all are given, `None`
    /// when the task is gone.
    pub fn ask(&self, id: &str, questions: InputRequests) -> oneshot::Receiver<Map<String, Value>> {
        let (resume, answers) = oneshot::channel();
        if let Some(entry) = self.lock().get_mut(id) {
            entry.stage = Stage::Waiting {
                pending: questions,
                answered: Map::new(),
                resume: Some(resume),
            };
            entry.task.last_updated_at = current_timestamp();
        }
        answers
    }

    /// Sets the task's `statusMessage` (a tool's progress message).
    pub fn set_message(&self, id: &str, message: &str) {
        if let Some(entry) = self.lock().get_mut(id) {
            entry.task.status_message = Some(message.to_owned());
            entry.task.last_updated_at = current_timestamp();
        }
    }

    pub fn finish(&self, id: &str, outcome: Outcome) {
        if let Some(entry) = self.lock().get_mut(id) {
            entry.stage = Stage::Done(match outcome {
                Outcome::Completed(result) => TaskPayload::Completed { result },
                Outcome::Failed(error) => TaskPayload::Failed { error },
                Outcome::Cancelled => TaskPayload::Cancelled,
            });
            entry.finished = Some(Instant::now());
            entry.task.last_updated_at = current_timestamp();
        }
    }

    /// How many tasks are kept, running or finished.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().len()
    }
}

fn unknown(id: &str) -> McpError {
    McpError::invalid_params(
        format!(
            "no task `{id}`: it never existed on this server, or it expired (a task is kept \
             for ttlMs after it was created)"
        ),
        Some(serde_json::json!({"code": "unknown_task", "taskId": id})),
    )
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// 128 random bits: a task id is all a client needs to read its result.
fn new_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the OS random source is available");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_oldest_finished_task_makes_room_and_running_ones_never_do() {
        let store = TaskStore::new(TaskSettings::default().max_tasks(2));
        let a = store.create(CancellationToken::new()).ok().unwrap();
        let b = store.create(CancellationToken::new()).ok().unwrap();
        assert!(store.create(CancellationToken::new()).is_err());
        store.finish(&a.task_id, Outcome::Cancelled);
        let c = store.create(CancellationToken::new()).ok().unwrap();
        assert_eq!(store.len(), 2);
        assert!(store.get(&a.task_id).is_err());
        assert!(store.get(&b.task_id).is_ok() && store.get(&c.task_id).is_ok());
    }

    #[test]
    fn a_task_past_its_ttl_is_gone_and_its_work_cancelled() {
        let store = TaskStore::new(TaskSettings::default().ttl(Duration::from_millis(20)));
        let cancel = CancellationToken::new();
        let task = store.create(cancel.clone()).ok().unwrap();
        std::thread::sleep(Duration::from_millis(40));
        let error = store.get(&task.task_id).unwrap_err();
        assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert!(cancel.is_cancelled());
    }
}
