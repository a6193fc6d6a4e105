/**
 * A page that lists the first page of pets (the API's default size) and adds pets, as a front-end app
 * would. It knows nothing of the mock but the one call to startMocking(); remove it and the page talks to a real API.
 */
import type { ApiError, NewPet, Pet, PetStatus } from 'petstore-mock';
import { startMocking } from './mocks.js';

function element<T extends Element>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`index.html has no ${selector}`);
  return found;
}

const keyInput = element<HTMLInputElement>('#key');
const form = element<HTMLFormElement>('#add');
const message = element<HTMLParagraphElement>('#message');
const list = element<HTMLUListElement>('#pets');

/** Calls the API under /v1 with the key of the page; an answer that is not 2xx throws its ApiError as a message. */
async function api<T>(path: string, body?: NewPet): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${keyInput.value}` };
  if (body) headers['content-type'] = 'application/json';
  const response = await fetch(`/v1${path}`, body ? { method: 'POST', headers, body: JSON.stringify(body) } : { headers });
  const json: unknown = await response.json();
  if (!response.ok) {
    const error = json as ApiError;
    throw new Error(`${error.status} ${error.code}: ${error.message}`);
  }
  return json as T;
}

function show(text: string, isError = false): void {
  message.textContent = text;
  message.classList.toggle('error', isError);
}

async function refresh(): Promise<void> {
  try {
    const pets = await api<Pet[]>('/pets');
    list.replaceChildren(
      ...pets.map((pet) => {
        const item = document.createElement('li');
        item.textContent = `#${pet.id} ${pet.name} (${pet.status})`;
        return item;
      }),
    );
  } catch (error) {
    list.replaceChildren();
    show((error as Error).message, true);
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const newPet: NewPet = { name: String(data.get('name')), categoryId: Number(data.get('categoryId')), status: String(data.get('status')) as PetStatus };
  api<Pet>('/pets', newPet).then(
    async (pet) => {
      show(`Added ${pet.name} (#${pet.id})`);
      form.reset();
      await refresh();
    },
    (error: Error) => show(error.message, true),
  );
});

element('#reload').addEventListener('click', () => {
  show('');
  void refresh();
});

void startMocking().then(refresh);
