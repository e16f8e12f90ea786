export const dynamic = "force-dynamic";

export default function Home() {
  return (
    <main style={{ padding: 32 }}>
      <h1>Такси — диспетчерская</h1>
      <p>
        <a href="/signin">Войти</a>
      </p>
    </main>
  );
}
